import * as v from 'valibot';
import { graphqlRequest } from '../../../lib/graphql';
import { FALLBACK_ERROR_MESSAGE, fetchText, postJson } from '../../../lib/http';
import { parseViewerData, VIEWER_QUERY, type Viewer } from '../../viewer';

// The REST sign-in calls and the viewer query, each reduced to the outcomes
// the screens care about.

const UNAUTHORISED = 'unauthorised';

export type ViewerOutcome =
  | { kind: 'signed-in'; viewer: Viewer }
  | { kind: 'signed-out' }
  | { kind: 'error'; message: string };

export async function loadViewer(): Promise<ViewerOutcome> {
  const result = await graphqlRequest(VIEWER_QUERY);
  if (!result.ok) {
    return result.status === 401 ? { kind: 'signed-out' } : { kind: 'error', message: result.message };
  }
  const viewer = parseViewerData(result.data);
  if (viewer === undefined) return { kind: 'error', message: FALLBACK_ERROR_MESSAGE };
  return viewer === null ? { kind: 'signed-out' } : { kind: 'signed-in', viewer };
}

// The check answers plain text; `unauthorised` means there is no session,
// whatever the status code says.
export async function checkSession(): Promise<ViewerOutcome> {
  const result = await fetchText('/api/auth/check');
  const text = result.ok ? result.data : result.message;
  if (text.trim() === UNAUTHORISED) return { kind: 'signed-out' };
  if (!result.ok) return { kind: 'error', message: FALLBACK_ERROR_MESSAGE };
  return loadViewer();
}

const loginResponseSchema = v.union([
  v.object({ emailVerifyRequired: v.literal(true) }),
  v.object({ user: v.unknown() }),
]);

export type LoginOutcome = { kind: 'signed-in' } | { kind: 'email-verify-required' } | { kind: 'error'; message: string };

export async function login(email: string, password: string): Promise<LoginOutcome> {
  // verifyToken is the bot check: empty at first; when the server asks for
  // proof of work, postJson solves it and repeats the call with the solution.
  const result = await postJson('/api/auth/login', { email, password, verifyToken: '' });
  if (!result.ok) return { kind: 'error', message: result.message };
  const parsed = v.safeParse(loginResponseSchema, result.data);
  if (!parsed.success) return { kind: 'error', message: FALLBACK_ERROR_MESSAGE };
  return 'emailVerifyRequired' in parsed.output ? { kind: 'email-verify-required' } : { kind: 'signed-in' };
}

/** The magic link's call: any refusal is the page's one 'Login Failed' message. */
export async function verifyLoginLink(email: string, token: string): Promise<{ ok: boolean }> {
  const result = await postJson('/api/auth/login_verify', { email, token });
  return { ok: result.ok };
}

// ok: false only when the server could not be reached; any answer from the
// server means the session is over (or already was).
export async function logout(): Promise<{ ok: boolean }> {
  const result = await postJson('/api/auth/logout', {});
  return { ok: result.ok || result.status !== 0 };
}
