import * as v from 'valibot';
import type { AnswerMap } from '../../../../api/shared/form-definition';
import { graphqlRequest } from '../../lib/graphql';
import { FALLBACK_ERROR_MESSAGE, postJson } from '../../lib/http';
import type { ReporterForm } from './report-data';

// Every call the report flow makes (docs/decisions/008-reporter-api.md), but the end of the
// session on leaving (quick-exit-actions.ts). Results are unions the caller must branch on;
// nothing here throws. The flow fetches this module at its first call, not with the page.

type Failure = { ok: false; message: string };

const FORM_FIELDS = `id buildID name secured unlocked welcomeMessageTitle welcomeMessageContent finishMessageTitle
finishMessageContent uploadFilesMessage showImportantInfoMessage assignedToSupportMessage allowFileUploads
allowedFileTypes hasChat allowChatFileUploads showLogo theme
widgets { id type title required tooltip caption answers pageName condition { id matchType rules { id conditionWidgetID conditionAnswer } } }`;

const FORM_QUERY = `query ReportSubmissionForm($reportFormID: ID!) { reportSubmissionForm(reportFormID: $reportFormID) { ${FORM_FIELDS} } }`;
const UNLOCK_MUTATION = `mutation ReportFormUnlock($reportFormID: ID!, $password: String!) { reportFormUnlock(reportFormID: $reportFormID, password: $password) }`;
const UPDATE_MUTATION = `mutation UserReportSubmissionUpdate($page: Int!, $answers: [ReportAnswerInput!]!, $attachments: [ID!]) {
  userReportSubmissionUpdate(page: $page, answers: $answers, attachments: $attachments) { success errors { field message } } }`;
const COMPLETE_MUTATION = `mutation UserReportSubmissionComplete { userReportSubmissionComplete { reportID generatedPassword } }`;

/** `parse`: report-data.ts's parseReporterForm, handed over by the flow (see FlowContext.helpers). */
export async function loadReporterForm(reportFormID: string, parse: (value: unknown) => ReporterForm | undefined): Promise<{ ok: true; form: ReporterForm } | Failure> {
  const result = await graphqlRequest(FORM_QUERY, { reportFormID });
  if (!result.ok) return result;
  const form = parse((result.data as { reportSubmissionForm?: unknown }).reportSubmissionForm);
  return form ? { ok: true, form } : { ok: false, message: FALLBACK_ERROR_MESSAGE };
}

/** true when the password opened the form; false when it was wrong. */
export async function unlockForm(reportFormID: string, password: string): Promise<{ ok: true; unlocked: boolean } | Failure> {
  const result = await graphqlRequest(UNLOCK_MUTATION, { reportFormID, password });
  if (!result.ok) return result;
  return { ok: true, unlocked: (result.data as { reportFormUnlock?: unknown }).reportFormUnlock === true };
}

const startSchema = v.object({ buildID: v.nullish(v.string(), null) });

/** Starts (or resumes) the report; `buildID` is the build its questions come from. */
export async function startReport(reportFormID: string): Promise<{ ok: true; buildID: string | null } | Failure> {
  const result = await postJson('/api/auth/report_start', { reportFormID });
  if (!result.ok) return result;
  const parsed = v.safeParse(startSchema, result.data);
  return { ok: true, buildID: parsed.success ? parsed.output.buildID : null };
}

const updateSchema = v.object({
  success: v.boolean(),
  errors: v.nullish(v.array(v.object({ field: v.string(), message: v.string() })), []),
});

export type UpdateResult = { ok: true; fieldErrors: Record<string, string>; success: boolean } | Failure;

export async function savePage(page: number, answers: AnswerMap, attachments?: readonly string[]): Promise<UpdateResult> {
  const variables: Record<string, unknown> = {
    page,
    answers: Object.entries(answers).map(([widgetID, answer]) => ({ widgetID, answer })),
  };
  if (attachments) variables.attachments = attachments;
  const result = await graphqlRequest(UPDATE_MUTATION, variables);
  if (!result.ok) return result;
  const parsed = v.safeParse(updateSchema, (result.data as { userReportSubmissionUpdate?: unknown }).userReportSubmissionUpdate);
  if (!parsed.success) return { ok: false, message: FALLBACK_ERROR_MESSAGE };
  const fieldErrors: Record<string, string> = {};
  for (const error of parsed.output.errors) fieldErrors[error.field] ??= error.message;
  return { ok: true, success: parsed.output.success, fieldErrors };
}

const completionSchema = v.object({ reportID: v.string(), generatedPassword: v.string() });
export type ReportCredentials = { reportID: string; password: string };

export async function completeReport(): Promise<{ ok: true; credentials: ReportCredentials } | Failure> {
  const result = await graphqlRequest(COMPLETE_MUTATION);
  if (!result.ok) return result;
  const parsed = v.safeParse(completionSchema, (result.data as { userReportSubmissionComplete?: unknown }).userReportSubmissionComplete);
  if (!parsed.success) return { ok: false, message: FALLBACK_ERROR_MESSAGE };
  return { ok: true, credentials: { reportID: parsed.output.reportID, password: parsed.output.generatedPassword } };
}
