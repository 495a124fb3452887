import { derivePages, pageHasContent, visibleWidgetIds, type AnswerMap, type FormPage, type FormWidget } from '../../../../api/shared/form-definition';
import { pageStepKey, type StepKey } from './report-routes';

/** The welcome step's field for a password-protected form's password. */
export const FORM_PASSWORD_FIELD = 'formPassword';

export type Step = { key: StepKey; label: string; page?: FormPage };

/** The pages a reporter sees for these answers: pages with nothing visible are skipped. */
export function visiblePages(widgets: readonly FormWidget[], answers: AnswerMap): { pages: FormPage[]; visible: Set<string> } {
  const visible = visibleWidgetIds(widgets, answers);
  return { pages: derivePages(widgets).filter((page) => pageHasContent(page, visible)), visible };
}

/** Welcome, one step per visible page, Attach files (when allowed), Review, Finish. */
export function reportSteps(pages: readonly FormPage[], allowFileUploads: boolean): Step[] {
  return [
    { key: 'welcome', label: 'Welcome' },
    ...pages.map((page) => ({ key: pageStepKey(page.index), label: page.name, page })),
    ...(allowFileUploads ? [{ key: 'attach' as const, label: 'Attach files' }] : []),
    { key: 'review', label: 'Review' },
    { key: 'finish', label: 'Finish' },
  ];
}

export function progressPercentage(stepIndex: number, stepCount: number): number {
  if (stepCount <= 1 || stepIndex < 0) return 0;
  return Math.round((stepIndex / (stepCount - 1)) * 100);
}
