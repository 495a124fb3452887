import { lazy, Suspense } from 'react';

// The Translations tab of a saved form: its own chunk, loaded when first opened.

export type BuilderTab = 'editor' | 'translations';

const TranslationsTab = lazy(() => import('./translations-tab').then((module) => ({ default: module.TranslationsTab })));

export function BuilderTabs({ tab, onTab }: { tab: BuilderTab; onTab: (tab: BuilderTab) => void }) {
  return (
    <nav className="tabs" aria-label="Form sections">
      <button type="button" className="tabs__tab" aria-current={tab === 'editor' ? 'page' : undefined} onClick={() => onTab('editor')}>
        Editor
      </button>
      <button type="button" className="tabs__tab" aria-current={tab === 'translations' ? 'page' : undefined} onClick={() => onTab('translations')}>
        Translations
      </button>
    </nav>
  );
}

export function TranslationsPanel(props: { formID: string; organisationID: string; dirty: boolean }) {
  return (
    <Suspense fallback={<p className="muted">Loading translations…</p>}>
      <TranslationsTab {...props} />
    </Suspense>
  );
}
