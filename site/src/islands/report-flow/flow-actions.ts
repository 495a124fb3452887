import type { Dispatch, MutableRefObject, SetStateAction } from 'react';
import { checkPageAnswers, type FormPage } from '../../../../api/shared/form-definition';
import { FALLBACK_ERROR_MESSAGE } from '../../lib/http';
import type { AttachmentEntry } from './attachment-upload';
import { completeReport, loadReporterForm, savePage, startReport, unlockForm, type ReportCredentials } from './report-api';
import type { ReporterForm } from './report-data';
import type { StepKey } from './report-routes';
import type { Step } from './report-steps';
import type { DataState, FlowHelpers } from './use-report-flow';

// What Next and Submit do in the report flow. use-report-flow.ts fetches this module at the
// first press, with the server calls it makes, so the page's first load carries neither.

const FORM_PASSWORD_INCORRECT = 'Form password is incorrect';
const ERROR_SCROLL_DELAY_MS = 500;

type Answers = Record<string, string[]>;

/** The flow's state when an action starts, and the setters it changes it with. */
export type FlowContext = {
  ready: Extract<DataState, { kind: 'ready' }> | undefined;
  form: ReporterForm | undefined;
  formID: string | undefined;
  answers: Answers;
  started: boolean;
  pages: FormPage[];
  visible: Set<string>;
  steps: Step[];
  attachments: AttachmentEntry[];
  /** What the server last stored for each page, to resend only what changed. */
  saved: MutableRefObject<Record<number, string>>;
  setData: (data: DataState) => void;
  setStarted: (started: boolean) => void;
  setErrors: (errors: Record<string, string>) => void;
  setFlowError: (message: string | undefined) => void;
  setCompleted: Dispatch<SetStateAction<ReadonlySet<StepKey>>>;
  setFlagged: Dispatch<SetStateAction<ReadonlySet<StepKey>>>;
  setCredentials: (credentials: ReportCredentials) => void;
  goTo: (target: StepKey, options?: { replace?: boolean }) => void;
  /**
   * The flow's own helpers, handed over rather than imported. Code both this module and the page's
   * first file import is split by the bundler into a third file the page loads at once, which
   * compresses worse than one (docs/decisions/047-reporter-language-follow-up.md, page weight).
   */
  helpers: FlowHelpers;
};

/** After the page has re-rendered with its errors, bring the first one into view (spec: 500 ms). */
function scrollToFirstError(): void {
  window.setTimeout(() => {
    const first = document.querySelector<HTMLElement>('.form-widget--error, .field__input[aria-invalid="true"], [data-flow-error]');
    if (!first) return;
    first.scrollIntoView({ behavior: 'smooth', block: 'center' });
    const control = first.matches('input, select, textarea') ? first : first.querySelector<HTMLElement>('input, select, textarea');
    control?.focus({ preventScroll: true });
  }, ERROR_SCROLL_DELAY_MS);
}

/** The actions over this state: Next on the welcome step and on a page, Next on attachments, Submit. */
export function actionsFor(context: FlowContext) {
  const { ready, form, formID, answers, started, pages, visible, steps, attachments, saved } = context;
  const { setData, setStarted, setErrors, setFlowError, setCompleted, setFlagged, setCredentials, goTo } = context;
  const { parseReporterForm, visiblePages, pageStepKey, passwordField } = context.helpers;

  const fail = (message: string) => {
    setFlowError(message);
    scrollToFirstError();
  };

  const fieldError = (field: string, message: string) => {
    setErrors({ [field]: message });
    scrollToFirstError();
  };

  const markDone = (key: StepKey) => {
    setCompleted((previous) => new Set(previous).add(key));
    setFlagged((previous) => {
      const next = new Set(previous);
      next.delete(key);
      return next;
    });
  };

  const nextAfter = (key: StepKey): StepKey => steps[steps.findIndex((candidate) => candidate.key === key) + 1]?.key ?? 'review';

  const keptAnswers = (page: FormPage) => checkPageAnswers(page.widgets, visible, answers);

  const attachmentIds = () => attachments.flatMap((entry) => (entry.status === 'done' && entry.id ? [entry.id] : []));

  // What a page's last successful save carried: its answers, and the attachment list when sent with it.
  const snapshot = (kept: Answers, withAttachments: boolean) => JSON.stringify([kept, withAttachments ? attachmentIds() : null]);

  /** Stores one page; shows the server's field errors and answers false when it refused. */
  const store = async (page: FormPage, kept: Answers, withAttachments: boolean): Promise<boolean> => {
    const result = await savePage(page.index, kept, withAttachments ? attachmentIds() : undefined);
    if (!result.ok) {
      fail(result.message);
      return false;
    }
    if (!result.success || Object.keys(result.fieldErrors).length > 0) {
      setErrors(result.fieldErrors);
      if (Object.keys(result.fieldErrors).length === 0) setFlowError(FALLBACK_ERROR_MESSAGE);
      scrollToFirstError();
      return false;
    }
    saved.current[page.index] = snapshot(kept, withAttachments);
    return true;
  };

  // A secured form's page is served before the old page's unload logs the reporter out, so after
  // a reload it says "unlocked" for a session that is gone. Ask again, and show the password field.
  const relock = async (reportFormID: string, message: string) => {
    const fresh = await loadReporterForm(reportFormID, parseReporterForm);
    if (!fresh.ok || !ready || fresh.form.unlocked) return fail(message);
    setData({ ...ready, form: fresh.form });
    fieldError(passwordField, 'Required');
  };

  const welcomeNext = async (password: string) => {
    if (!ready) return;
    let current = ready.form;
    if (current.secured && !current.unlocked) {
      if (password === '') return fieldError(passwordField, 'Required');
      const unlock = await unlockForm(current.id, password);
      if (!unlock.ok) return fail(unlock.message);
      if (!unlock.unlocked) return fieldError(passwordField, FORM_PASSWORD_INCORRECT);
      const reloaded = await loadReporterForm(current.id, parseReporterForm);
      if (!reloaded.ok) return fail(reloaded.message);
      current = reloaded.form;
      setData({ ...ready, form: current });
    }
    if (!started) {
      const start = await startReport(current.id);
      if (!start.ok) return current.secured ? relock(current.id, start.message) : fail(start.message);
      // Published anew since this page loaded: the report is made on the new build, so its questions are shown.
      if (start.buildID && start.buildID !== current.buildID) {
        const reloaded = await loadReporterForm(current.id, parseReporterForm);
        if (!reloaded.ok) return fail(reloaded.message);
        current = reloaded.form;
        setData({ ...ready, form: current });
      }
      setStarted(true);
    }
    markDone('welcome');
    const firstPage = visiblePages(current.widgets, answers).pages[0];
    goTo(firstPage ? pageStepKey(firstPage.index) : current.allowFileUploads ? 'attach' : 'review');
  };

  const pageNext = async (page: FormPage) => {
    const { kept, problems } = keptAnswers(page);
    if (problems.length > 0) {
      setErrors(Object.fromEntries(problems.map((problem) => [problem.widgetId, problem.message])));
      return scrollToFirstError();
    }
    if (!(await store(page, kept, false))) return;
    markDone(pageStepKey(page.index));
    goTo(nextAfter(pageStepKey(page.index)));
  };

  const attachNext = async () => {
    // Attachments travel with the last page, resent unchanged, so no page loses its answers.
    const last = pages.at(-1);
    if (last && !(await store(last, keptAnswers(last).kept, true))) return;
    markDone('attach');
    goTo('review');
  };

  const submit = async () => {
    const checked = pages.map((page) => ({ page, ...keptAnswers(page) }));
    const broken = checked.filter((entry) => entry.problems.length > 0);
    if (broken.length > 0) {
      setFlagged(new Set(broken.map((entry) => pageStepKey(entry.page.index))));
      goTo(pageStepKey(broken[0]!.page.index));
      setErrors(Object.fromEntries(broken[0]!.problems.map((problem) => [problem.widgetId, problem.message])));
      return scrollToFirstError();
    }
    for (const [index, entry] of checked.entries()) {
      const withAttachments = Boolean(form?.allowFileUploads) && index === checked.length - 1;
      if (saved.current[entry.page.index] === snapshot(entry.kept, withAttachments)) continue;
      if (!(await store(entry.page, entry.kept, withAttachments))) return;
    }
    const result = await completeReport();
    if (!result.ok) return fail(result.message);
    markDone('review');
    setCredentials(result.credentials);
    goTo('finish');
  };

  return { welcomeNext, pageNext, attachNext, submit };
}
