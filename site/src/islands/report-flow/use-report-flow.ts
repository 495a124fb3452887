import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { checkPageAnswers, type FormPage } from '../../../../api/shared/form-definition';
import { navigate, useHistoryLocation } from '../../lib/history-router';
import { FALLBACK_ERROR_MESSAGE } from '../../lib/http';
import { readPageData, REPORT_FORM_DATA_ID } from '../../lib/page-data';
import type { AttachmentEntry } from './attachment-upload';
import { readCredentials, storeCredentials } from './credentials';
import { completeReport, finishReport, loadReporterForm, savePage, startReport, unlockForm, type ReportCredentials } from './report-api';
import { parseReportFormPage, type ReportFormPage } from './report-data';
import { pageStepKey, parseReportRoute, stepPath, type StepKey } from './report-routes';
import { reportSteps, visiblePages } from './report-steps';

export const FORM_PASSWORD_FIELD = 'formPassword';
const FORM_PASSWORD_INCORRECT = 'Form password is incorrect';
const ERROR_SCROLL_DELAY_MS = 500;

type Answers = Record<string, string[]>;
type DataState = { kind: 'loading' } | { kind: 'error'; message: string } | ({ kind: 'ready' } & ReportFormPage);

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

/**
 * The report flow's state and actions. Answers live in memory only; each page is stored on the
 * server when the reporter presses Next, and every page is checked again before Submit.
 */
export function useReportFlow() {
  const location = useHistoryLocation();
  const route = useMemo(() => parseReportRoute(location), [location]);
  const [data, setData] = useState<DataState>({ kind: 'loading' });
  const [answers, setAnswers] = useState<Answers>({});
  const [started, setStarted] = useState(false);
  const [completed, setCompleted] = useState<ReadonlySet<StepKey>>(new Set());
  const [flagged, setFlagged] = useState<ReadonlySet<StepKey>>(new Set());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [flowError, setFlowError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [credentials, setCredentials] = useState<ReportCredentials>();
  const [attachments, setAttachments] = useState<AttachmentEntry[]>([]);
  const busyRef = useRef(false);
  // What the server last stored for each page, to resend only what changed.
  const saved = useRef<Record<number, string>>({});

  useEffect(() => {
    const parsed = parseReportFormPage(readPageData(REPORT_FORM_DATA_ID));
    setData('error' in parsed ? { kind: 'error', message: parsed.error } : { kind: 'ready', ...parsed });
  }, []);

  const ready = data.kind === 'ready' ? data : undefined;
  const form = ready?.form;
  const formID = form?.id;
  const { pages, visible } = useMemo(() => visiblePages(form?.widgets ?? [], answers), [form, answers]);
  const steps = useMemo(() => reportSteps(pages, form?.allowFileUploads ?? false), [pages, form]);
  const step = route?.step ?? 'welcome';
  const stepIndex = steps.findIndex((candidate) => candidate.key === step);
  const currentPage = steps[stepIndex]?.page;

  // The spec logs the reporter out when the page unloads. Moving between steps
  // uses the History API, so only leaving or reloading the page gets here.
  useEffect(() => {
    if (!formID) return;
    const onPageHide = () => finishReport(formID);
    // A page restored from the back/forward cache has lost its session: start over.
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) window.location.reload();
    };
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('pageshow', onPageShow);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
    };
  }, [formID]);

  const goTo = useCallback(
    (target: StepKey, options: { replace?: boolean } = {}) => {
      if (!formID) return;
      setErrors({});
      setFlowError(undefined);
      navigate(stepPath(formID, target), options);
      window.scrollTo(0, 0);
    },
    [formID],
  );

  // Steps reached without going through the ones before them go back to the start.
  useEffect(() => {
    if (!form || !route) return;
    if (credentials) {
      if (step !== 'finish') goTo('finish', { replace: true });
      return;
    }
    if (step === 'finish') {
      const stored = readCredentials(form.id);
      if (stored) setCredentials(stored);
      else goTo('welcome', { replace: true });
      return;
    }
    if (step === 'welcome') return;
    if (!started) goTo('welcome', { replace: true });
    else if (step === 'attach' && !form.allowFileUploads) goTo('review', { replace: true });
    else if (stepIndex < 0) goTo(steps[1]?.key ?? 'welcome', { replace: true });
  }, [form, route, step, stepIndex, steps, started, credentials, goTo]);

  const run = useCallback(async (task: () => Promise<void>) => {
    // A ref, not state: a double click lands before React re-renders.
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    try {
      await task();
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }, []);

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
    const fresh = await loadReporterForm(reportFormID);
    if (!fresh.ok || !ready || fresh.form.unlocked) return fail(message);
    setData({ ...ready, form: fresh.form });
    fieldError(FORM_PASSWORD_FIELD, 'Required');
  };

  const welcomeNext = (password: string) =>
    run(async () => {
      if (!ready) return;
      let current = ready.form;
      if (current.secured && !current.unlocked) {
        if (password === '') return fieldError(FORM_PASSWORD_FIELD, 'Required');
        const unlock = await unlockForm(current.id, password);
        if (!unlock.ok) return fail(unlock.message);
        if (!unlock.unlocked) return fieldError(FORM_PASSWORD_FIELD, FORM_PASSWORD_INCORRECT);
        const reloaded = await loadReporterForm(current.id);
        if (!reloaded.ok) return fail(reloaded.message);
        current = reloaded.form;
        setData({ ...ready, form: current });
      }
      if (!started) {
        const start = await startReport(current.id);
        if (!start.ok) return current.secured ? relock(current.id, start.message) : fail(start.message);
        // Published anew since this page loaded: the report is made on the new build, so its questions are shown.
        if (start.buildID && start.buildID !== current.buildID) {
          const reloaded = await loadReporterForm(current.id);
          if (!reloaded.ok) return fail(reloaded.message);
          current = reloaded.form;
          setData({ ...ready, form: current });
        }
        setStarted(true);
      }
      markDone('welcome');
      const firstPage = visiblePages(current.widgets, answers).pages[0];
      goTo(firstPage ? pageStepKey(firstPage.index) : current.allowFileUploads ? 'attach' : 'review');
    });

  const pageNext = (page: FormPage) =>
    run(async () => {
      const { kept, problems } = keptAnswers(page);
      if (problems.length > 0) {
        setErrors(Object.fromEntries(problems.map((problem) => [problem.widgetId, problem.message])));
        return scrollToFirstError();
      }
      if (!(await store(page, kept, false))) return;
      markDone(pageStepKey(page.index));
      goTo(nextAfter(pageStepKey(page.index)));
    });

  const attachNext = () =>
    run(async () => {
      // Attachments travel with the last page, resent unchanged, so no page loses its answers.
      const last = pages.at(-1);
      if (last && !(await store(last, keptAnswers(last).kept, true))) return;
      markDone('attach');
      goTo('review');
    });

  const submit = () =>
    run(async () => {
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
      if (formID) storeCredentials(formID, result.credentials);
      markDone('review');
      setCredentials(result.credentials);
      goTo('finish');
    });

  const setAnswer = useCallback((widgetId: string, answer: string[]) => {
    setAnswers((previous) => ({ ...previous, [widgetId]: answer }));
    setErrors((previous) => {
      if (!(widgetId in previous)) return previous;
      const { [widgetId]: _removed, ...rest } = previous;
      return rest;
    });
  }, []);

  const back = () => {
    const previous = steps[stepIndex - 1];
    if (previous) goTo(previous.key);
  };

  return {
    data,
    route,
    form,
    steps,
    stepIndex,
    step,
    currentPage,
    pages,
    answers,
    visible,
    errors,
    flowError,
    busy,
    completed,
    flagged,
    credentials,
    attachments,
    setAttachments,
    setAnswer,
    goTo,
    back,
    welcomeNext,
    pageNext,
    attachNext,
    submit,
  };
}

export type ReportFlow = ReturnType<typeof useReportFlow>;
