import { useEffect, useState } from 'react';
import type { AttachFilesStep } from './attach-files-step';
import type { LanguageMenu } from '../language-menu';
import type { FinishStep } from './finish-step';
import type { PageStep } from './page-step';
import type { ReviewStep } from './review-step';

/**
 * The steps after Welcome (the form's pages with the widget renderer, attachments, review,
 * finish) are fetched once the first step is on screen, while the reporter reads it, so the
 * page's first load carries only the shell and the welcome step (docs/decisions/024-page-weight.md).
 */
export type LaterSteps = {
  PageStep: typeof PageStep;
  AttachFilesStep: typeof AttachFilesStep;
  ReviewStep: typeof ReviewStep;
  FinishStep: typeof FinishStep;
  /** Renders nothing unless the organisation offers translations. */
  LanguageMenu: typeof LanguageMenu;
};

/** The later code's loaders (later-code.ts), one hop away so this page's first file does not carry their file lists. */
const laterCode = () => import('./later-code');

/** What Next and Submit do (flow-actions.ts): fetched at the first press, or earlier while the welcome step is read. */
export const importFlowActions = () => laterCode().then((code) => code.flowActions());

let loaded: LaterSteps | undefined;
let loading: Promise<LaterSteps> | undefined;

function loadLaterSteps(): Promise<LaterSteps> {
  loading ??= laterCode()
    .then((code) => code.laterStepViews())
    .then(
      (module) => (loaded = module.LATER_STEPS),
      (error: unknown) => {
        // A failed fetch is tried again when the flow next renders a later step.
        loading = undefined;
        throw error;
      },
    );
  return loading;
}

export type LaterStepsState = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; steps: LaterSteps };

/**
 * Starts fetching the later steps when `wanted` is true; the state says whether they are here.
 * After a failure, moving to another step (`step`) tries again.
 */
export function useLaterSteps(wanted: boolean, step: string): LaterStepsState {
  const [steps, setSteps] = useState(() => loaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!wanted || steps) return;
    let current = true;
    setFailed(false);
    loadLaterSteps().then(
      (module) => current && setSteps(module),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [wanted, steps, step]);
  if (steps) return { kind: 'ready', steps };
  return failed ? { kind: 'failed' } : { kind: 'loading' };
}
