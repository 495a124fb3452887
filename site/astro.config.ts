import react from '@astrojs/react';
import { defineConfig, passthroughImageService } from 'astro/config';

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
});
