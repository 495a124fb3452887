// The flow's later code, fetched by later-steps.ts. The page's first file names only this small
// module; the later files, and the list of what each needs, travel here, one short hop after the
// welcome step is on screen (docs/decisions/047-reporter-language-follow-up.md, page weight).

/** The steps after Welcome, with the language menu. */
export const laterStepViews = () => import('./later-step-views');
/** What Next and Submit do, with the server calls they make. */
export const flowActions = () => import('./flow-actions');
