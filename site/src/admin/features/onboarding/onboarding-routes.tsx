import { Suspense, type ReactNode } from 'react';
import type { AdminLocation } from '../../router';
import type { RouteResult } from '../../routes';
import { lazyScreen } from '../../ui/lazy-screen';
import { pendingSsoOnboarding, type PendingSsoOnboarding } from './sso-marker';

// The sign-up screens live in the console's island (its shell already answers /onboarding/* and
// /verify/*), each in a chunk of its own: the login page never downloads them.
const SignUpPage = lazyScreen('SignUpPage', () => import('./sign-up-page'));
const ConfirmSignUpPage = lazyScreen('ConfirmSignUpPage', () => import('./confirm-page'));
const SsoOnboardingCallback = lazyScreen<'SsoOnboardingCallback', { search: string; pending: PendingSsoOnboarding }>('SsoOnboardingCallback', () => import('./sso-onboarding'));

function segment(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

const bare = (element: ReactNode): RouteResult => ({ kind: 'page', layout: 'bare', element: <Suspense fallback={null}>{element}</Suspense> });

/** /onboarding/sign-up[/:productID], /onboarding/:inviteToken and /verify/:code; undefined for any other path. */
export function onboardingRoute(location: AdminLocation, onSignedIn: () => Promise<{ ok: boolean }>): RouteResult | undefined {
  // Back from Microsoft while accepting an invite: the callback finishes onboarding, not a sign-in.
  const sso = location.pathname === '/login-ms/callback' ? pendingSsoOnboarding() : null;
  if (sso) return bare(<SsoOnboardingCallback search={location.search} pending={sso} />);
  const signUp = /^\/onboarding\/sign-up(?:\/([^/]+))?$/.exec(location.pathname);
  if (signUp) {
    const productID = signUp[1] === undefined ? undefined : segment(signUp[1]);
    return bare(<SignUpPage key={productID ?? ''} kind="sign-up" productID={productID} />);
  }
  const invite = /^\/onboarding\/([^/]+)$/.exec(location.pathname);
  const token = invite ? segment(invite[1]!) : undefined;
  if (token !== undefined) return bare(<SignUpPage key={token} kind="invite" token={token} />);
  const verify = /^\/verify\/([^/]+)$/.exec(location.pathname);
  const code = verify ? segment(verify[1]!) : undefined;
  if (code !== undefined) return bare(<ConfirmSignUpPage key={code} code={code} onSignedIn={onSignedIn} />);
  // /verify without a code: the console's own page for typing a verification code.
  if (location.pathname === '/verify') return { kind: 'redirect', to: '/admin/verify' };
  return undefined;
}
