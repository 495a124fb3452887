import { atom } from 'nanostores';
import { FALLBACK_ERROR_MESSAGE } from '../../../lib/http';
import { checkSession, loadViewer, logout, type ViewerOutcome } from './auth-api';
import type { Viewer } from './viewer';

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

// `beforeSignedOut` runs just before the store changes, so the caller can
// move away from a page that is about to require a session.
export async function signOut(beforeSignedOut: () => void): Promise<{ ok: boolean }> {
  const result = await logout();
  if (result.ok) {
    beforeSignedOut();
    $session.set({ status: 'signed-out' });
  }
  return result;
}
