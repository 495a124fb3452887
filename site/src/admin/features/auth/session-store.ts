import { atom } from 'nanostores';
import { FALLBACK_ERROR_MESSAGE, fetchText } from '../../../lib/http';
import { disposeLive } from '../../../lib/live';
import type { Viewer } from '../../viewer';
import { checkSession, loadViewer, logout, type ViewerOutcome } from './auth-api';

// The one place that knows whether someone is signed in. Screens read
// $session; only the actions below change it.

export type SessionState =
  | { status: 'checking' }
  | { status: 'signed-out' }
  | { status: 'signed-in'; viewer: Viewer }
  | { status: 'error'; message: string };

export const $session = atom<SessionState>({ status: 'checking' });

function apply(outcome: ViewerOutcome): void {
  switch (outcome.kind) {
    case 'signed-in':
      $session.set({ status: 'signed-in', viewer: outcome.viewer });
      return;
    case 'signed-out':
      // No live socket may keep retrying against a session that is gone.
      disposeLive();
      $session.set({ status: 'signed-out' });
      return;
    case 'error':
      $session.set({ status: 'error', message: outcome.message });
      return;
  }
}

export async function restoreSession(): Promise<void> {
  $session.set({ status: 'checking' });
  apply(await checkSession());
}

// After a successful login the viewer is loaded fresh, so nothing from a
// previous user can linger. The caller shows the message if it fails.
export async function completeSignIn(): Promise<{ ok: true } | { ok: false; message: string }> {
  const outcome = await loadViewer();
  if (outcome.kind === 'signed-in') {
    apply(outcome);
    return { ok: true };
  }
  return { ok: false, message: outcome.kind === 'error' ? outcome.message : FALLBACK_ERROR_MESSAGE };
}

/**
 * The signed-in user changed their own profile: load it again so the shell (the top bar's name,
 * the verification banner) shows it at once. Nothing changes when that fails or the user has
 * meanwhile signed out; the next full load shows it.
 */
export async function refreshViewer(): Promise<void> {
  const current = $session.get();
  if (current.status !== 'signed-in') return;
  const outcome = await loadViewer();
  const now = $session.get();
  if (outcome.kind === 'signed-in' && now.status === 'signed-in' && now.viewer.id === outcome.viewer.id) {
    $session.set({ status: 'signed-in', viewer: outcome.viewer });
  }
}

// `beforeSignedOut` runs just before the store changes, so the caller can
// move away from a page that is about to require a session.
export async function signOut(beforeSignedOut: () => void): Promise<{ ok: boolean }> {
  const result = await logout();
  if (result.ok) endSession(beforeSignedOut);
  return result;
}

/** The server ended this session (sign-out elsewhere, access removed): forget the user at once. */
export function endSession(beforeSignedOut: () => void): void {
  disposeLive();
  beforeSignedOut();
  $session.set({ status: 'signed-out' });
}

let rechecking: Promise<void> | undefined;

/**
 * A GraphQL call said UNAUTHENTICATED: ask the session check, and only if it answers
 * 'unauthorised' sign the user out. The router then bounces to /admin?bounced=1 and remembers
 * the page. Many failing calls at once share one check.
 */
export function recheckSession(): Promise<void> {
  if ($session.get().status !== 'signed-in') return Promise.resolve();
  rechecking ??= (async () => {
    const result = await fetchText('/api/auth/check');
    const text = result.ok ? result.data : result.message;
    if (text.trim() === 'unauthorised') apply({ kind: 'signed-out' });
  })().finally(() => {
    rechecking = undefined;
  });
  return rechecking;
}
