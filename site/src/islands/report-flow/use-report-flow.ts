import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FormPage } from '../../../../api/shared/form-definition';
import type { Translatable } from '../../forms/translated-text';
import { navigate, useHistoryLocation } from '../../lib/history-router';
import { FALLBACK_ERROR_MESSAGE } from '../../lib/http';
import { readPageData, REPORT_FORM_DATA_ID } from '../../lib/page-data';
import { endReportSession } from '../quick-exit-actions';
import { usePageHide } from '../use-page-hide';
import type { ShownForm } from '../language-menu';
import type { AttachmentEntry } from './attachment-upload';
import type { ReportCredentials } from './report-api';
import { parseReportFormPage, parseReporterForm, type ReportFormPage, type ReporterForm } from './report-data';
import type { FlowContext } from './flow-actions';
// What Next and Submit do, with the server calls they make: fetched at the first press (or while the
// welcome step is read), since that step is readable before either is needed (docs/decisions/024-page-weight.md).
import { importFlowActions as flowActions } from './later-steps';
import { pageStepKey, parseReportRoute, stepPath, type StepKey } from './report-routes';
import { FORM_PASSWORD_FIELD, reportSteps, visiblePages } from './report-steps';

/** What the actions (flow-actions.ts) use of the flow's own modules: see FlowContext.helpers. */
const FLOW_HELPERS = { parseReporterForm, visiblePages, pageStepKey, passwordField: FORM_PASSWORD_FIELD };
export type FlowHelpers = typeof FLOW_HELPERS;

export type DataState = { kind: 'loading' } | { kind: 'error'; message: string } | ({ kind: 'ready' } & ReportFormPage);

/**
 * The report flow's state and actions. Answers live in memory only; each page is stored on the
 * server when the reporter presses Next, and every page is checked again before Submit.
 */
export function useReportFlow() {
  const location = useHistoryLocation();
  const route = useMemo(() => parseReportRoute(location), [location]);
  const [data, setData] = useState<DataState>({ kind: 'loading' });
  const [answers, setAnswers] = useState<Record<string, string[]>>({});
  const [started, setStarted] = useState(false);
  const [completed, setCompleted] = useState<ReadonlySet<StepKey>>(new Set());
  const [flagged, setFlagged] = useState<ReadonlySet<StepKey>>(new Set());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [flowError, setFlowError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // A new report's ID and password live here only, for as long as the finish page is shown (decision 066).
  const [credentials, setCredentials] = useState<ReportCredentials>();
  // The page was hidden: it shows nothing more, and is loaded afresh if Back brings it back.
  const [left, setLeft] = useState(false);
  const [attachments, setAttachments] = useState<AttachmentEntry[]>([]);
  const busyRef = useRef(false);
  // What the server last stored for each page, to resend only what changed.
  const saved = useRef<Record<number, string>>({});

  useEffect(() => {
    const parsed = parseReportFormPage(readPageData(REPORT_FORM_DATA_ID));
    setData('error' in parsed ? { kind: 'error', message: parsed.error } : { kind: 'ready', ...parsed });
  }, []);

  const ready = data.kind === 'ready' ? data : undefined;
  // The form as the reporter reads it: translated by the language menu (language-menu.tsx) when they chose
  // a language, the original meanwhile. The actions work on the original (`ready.form`), whose option
  // texts are what answers store.
  const [shown, setShown] = useState<ShownForm>();
  const form: (ReporterForm & Translatable) | undefined = shown && shown.source === ready?.form ? shown.form : ready?.form;
  const formID = form?.id;
  const { pages, visible } = useMemo(() => visiblePages(form?.widgets ?? [], answers), [form, answers]);
  const steps = useMemo(() => reportSteps(pages, form?.allowFileUploads ?? false), [pages, form]);
  const step = route?.step ?? 'welcome';
  const stepIndex = steps.findIndex((candidate) => candidate.key === step);
  const currentPage = steps[stepIndex]?.page;

  // The spec logs the reporter out when the page unloads. Moving between steps uses the History
  // API, so only leaving or reloading the page gets here; the credentials go with the page, and a
  // page the back/forward cache restores has lost its session: it starts over.
  usePageHide(
    formID
      ? () => {
          endReportSession(formID);
          setCredentials(undefined);
          setLeft(true);
        }
      : undefined,
    { reloadWhenRestored: true },
  );

  // Fetched while the reporter reads the first step, so Next does not wait for it.
  useEffect(() => {
    if (formID) flowActions().catch(() => {});
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
    if (!form || !route || left) return;
    if (credentials) {
      if (step !== 'finish') goTo('finish', { replace: true });
      return;
    }
    // The finish page without the report just made (a reload, History, a reopened tab): the
    // credentials were shown once and are gone, so back to the start (spec).
    if (step === 'finish') return goTo('welcome', { replace: true });
    if (step === 'welcome') return;
    if (!started) goTo('welcome', { replace: true });
    else if (step === 'attach' && !form.allowFileUploads) goTo('review', { replace: true });
    else if (stepIndex < 0) goTo(steps[1]?.key ?? 'welcome', { replace: true });
  }, [form, route, step, stepIndex, steps, started, credentials, left, goTo]);

  const run = useCallback(async (task: () => Promise<void>) => {
    // A ref, not state: a double click lands before React re-renders.
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    try {
      await task();
    } catch {
      // Only fetching the actions' module can throw (the server calls answer failures instead).
      setFlowError(FALLBACK_ERROR_MESSAGE);
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }, []);

  // The state and setters the actions read when they run (flow-actions.ts).
  const context = (): FlowContext => ({
    ready,
    form: ready?.form,
    formID,
    answers,
    started,
    pages,
    visible,
    steps,
    attachments,
    saved,
    setData,
    setStarted,
    setErrors,
    setFlowError,
    setCompleted,
    setFlagged,
    setCredentials,
    goTo,
    helpers: FLOW_HELPERS,
  });
  const welcomeNext = (password: string) => run(async () => (await flowActions()).actionsFor(context()).welcomeNext(password));
  const pageNext = (page: FormPage) => run(async () => (await flowActions()).actionsFor(context()).pageNext(page));
  const attachNext = () => run(async () => (await flowActions()).actionsFor(context()).attachNext());
  const submit = () => run(async () => (await flowActions()).actionsFor(context()).submit());

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
    setShown,
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
    left,
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
