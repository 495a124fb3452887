import react from '@astrojs/react';
import { defineConfig, passthroughImageService } from 'astro/config';

// Modules under site/src matching one of these names (docs/decisions/024-page-weight.md).
const siteModules = (names: string) => new RegExp(`site[\\\\/]src[\\\\/](?:${names})\\.tsx?$`);

// Every page is a static shell: the Lantern server injects per-request data
// (organisation, error message) into placeholders and serves the files itself,
// so nothing here may depend on a request or on another origin.
export default defineConfig({
  output: 'static',
  integrations: [react()],
  // The toolbar injects its own scripts in dev; we keep dev and build alike.
  devToolbar: { enabled: false },
  // We render no optimised images; this avoids pulling in sharp.
  image: { service: passthroughImageService() },
  build: {
    // CSS in files keeps style-src simple and lets the server cache them.
    inlineStylesheets: 'never',
  },
  // Prefetching would make the browser request pages the user did not ask for.
  prefetch: false,
  vite: {
    build: {
      rolldownOptions: {
        output: {
          // Left alone, the bundler cuts the code every page shares into a dozen files of a few
          // hundred bytes, and each compresses worse alone than together. Two groups instead:
          // the helpers every reporter page uses without React (the organisation page has none),
          // and React with the small React helpers and shared form code that every React page
          // (reporter pages and the console) loads anyway.
          codeSplitting: {
            groups: [
              {
                name: 'reporter-base',
                test: siteModules('lib[\\\\/](http|proof-of-work|page-data)|islands[\\\\/](quick-exit-actions|organisation-display|page-title)|forms[\\\\/]escape-closes'),
                priority: 2,
              },
              {
                name: 'react',
                test: (id) =>
                  /node_modules[\\/](react|react-dom|scheduler|@astrojs[\\/]react)[\\/]|rolldown[\\/]runtime/.test(id) ||
                  /api[\\/]shared[\\/](form-definition|enums|limits|theme|rich-text)\.ts$/.test(id) ||
                  siteModules('islands[\\\\/](quick-exit|page-focus|use-page-hide|report-flow[\\\\/]step-actions)|lib[\\\\/](text-field|history-router)|forms[\\\\/](rich-text|theme)').test(id),
                priority: 1,
              },
            ],
          },
        },
      },
    },
  },
});
