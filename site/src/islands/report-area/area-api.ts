import * as v from 'valibot';
import { graphqlRequest } from '../../lib/graphql';
import { FALLBACK_ERROR_MESSAGE, postJson, postJsonKeepalive } from '../../lib/http';
import { disposeLive } from '../../lib/live';
import { clearTabStorage } from '../quick-exit-actions';

// The follow-up area's calls (docs/decisions/008-reporter-api.md). Nothing here throws.

/** Spec section 8: on /report paths this message means the session is gone. */
export const CREDENTIALS_PROBLEM = 'There was a problem reading your credentials. Please sign in and try again.';
/** What the chat answers a caller with no session at all (a socket reopened after the session ended). */
const LOGIN_REQUIRED = 'You must login to view this page';
export const LOGIN_PATH = '/report/login';

const text = v.nullish(v.string(), '');

const submissionSchema = v.object({
  id: v.string(),
  organisationID: v.string(),
  // Null only for a draft, which is sent back to its form anyway.
  reportID: text,
  formID: v.string(),
  completed: v.boolean(),
  completedAt: v.nullish(v.string(), null),
  formName: text,
  organisationName: text,
  // An unknown value from a newer server reads as the safe default, never as an error.
  reporterStatus: v.fallback(v.picklist(['RECEIVED', 'IN_PROGRESS', 'CLOSED']), 'RECEIVED'),
  standingMessage: text,
  // The message's translation item name; only ever sent back to the server, which looks it up.
  standingMessageName: v.nullish(v.pipe(v.string(), v.maxLength(200)), null),
  hasChat: v.nullish(v.boolean(), false),
  allowChatFileUploads: v.nullish(v.boolean(), false),
  conversationClosed: v.nullish(v.boolean(), false),
  unreadMessages: v.nullish(v.number(), 0),
  pages: v.nullish(
    v.array(v.object({ name: text, answers: v.array(v.object({ widgetID: v.string(), title: text, type: v.string(), answer: v.nullish(v.array(v.string()), []) })) })),
    [],
  ),
  attachments: v.nullish(
    v.array(v.object({ id: v.string(), fileName: v.string(), fileSizeBytes: v.number(), mimeType: text, fileURL: v.string() })),
    [],
  ),
});

export type ReporterSubmission = v.InferOutput<typeof submissionSchema>;
export type Failure = { ok: false; message: string };

const SUBMISSION_QUERY = `query ReporterSubmission { reporterSubmission { id organisationID reportID formID completed completedAt formName organisationName reporterStatus standingMessage
  standingMessageName hasChat
  allowChatFileUploads conversationClosed unreadMessages pages { name answers { widgetID title type answer } }
  attachments { id fileName fileSizeBytes mimeType fileURL } } }`;
const CHANGE_PASSWORD_MUTATION = `mutation UserReportSubmissionChangePassword($oldPassword: String!, $newPassword: String!) {
  userReportSubmissionChangePassword(oldPassword: $oldPassword, newPassword: $newPassword) }`;

/** Leaves for the login page when the server says the session is gone; answers whether it did. */
export function leaveIfSignedOut(message: string): boolean {
  if (message !== CREDENTIALS_PROBLEM && message !== LOGIN_REQUIRED) return false;
  disposeLive();
  // replace(): an area without its session has nothing to come back to, and Back from the login
  // must not land on it again only to be sent forward (a restored page reloads to here).
  window.location.replace(LOGIN_PATH);
  return true;
}

/** The session's submission; null without a session. */
export async function loadSubmission(): Promise<{ ok: true; submission: ReporterSubmission | null } | Failure> {
  const result = await graphqlRequest(SUBMISSION_QUERY);
  if (!result.ok) return result;
  const raw = (result.data as { reporterSubmission?: unknown }).reporterSubmission;
  if (raw === null || raw === undefined) return { ok: true, submission: null };
  const parsed = v.safeParse(submissionSchema, raw);
  return parsed.success ? { ok: true, submission: parsed.output } : { ok: false, message: FALLBACK_ERROR_MESSAGE };
}

export async function changePassword(oldPassword: string, newPassword: string): Promise<{ ok: true; changed: boolean } | Failure> {
  const result = await graphqlRequest(CHANGE_PASSWORD_MUTATION, { oldPassword, newPassword });
  if (!result.ok) return result;
  return { ok: true, changed: (result.data as { userReportSubmissionChangePassword?: unknown }).userReportSubmissionChangePassword === true };
}

const REPORT_FINISH_URL = '/api/auth/report_finish';

/** The Leave button: end the session, then go to the login page. The socket goes first, so no reconnect runs against the dead session. */
export async function leave(formID: string): Promise<void> {
  disposeLive();
  clearTabStorage();
  await postJson(REPORT_FINISH_URL, { reportFormID: formID });
  window.location.assign(LOGIN_PATH);
}

/** Page unload: the spec logs the reporter out; the request must outlive the page. */
export function finishOnUnload(formID: string): void {
  disposeLive();
  postJsonKeepalive(REPORT_FINISH_URL, { reportFormID: formID });
}

/** Global login hands the session over in the URL fragment (never sent to a server or a Referer). */
export async function consumeHandoff(): Promise<void> {
  const match = /(?:^#|&)handoff=([^&]*)/.exec(window.location.hash);
  if (!match) return;
  let handoff: string;
  try {
    handoff = decodeURIComponent(match[1] ?? '');
  } catch {
    handoff = '';
  }
  if (handoff !== '') await postJson('/api/auth/report_handoff', { handoff });
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
}
