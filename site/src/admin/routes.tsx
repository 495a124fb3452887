import type { ReactNode } from 'react';
import { LoginPage } from './features/auth/components/login-page';
import { homePathFor, type Viewer } from './features/auth/viewer';
import { HomePage } from './features/home/home-page';
import type { AdminLocation } from './router';
import { NotFoundPage } from './ui/not-found-page';

// Which screen a location shows, for a signed-out visitor and for a viewer.
// Pure functions of their inputs, so the rules can be read in one place.

export type RouteResult =
  | { kind: 'page'; layout: 'bare' | 'shell'; element: ReactNode }
  | { kind: 'redirect'; to: string; rememberReturnPath?: boolean };

export const ADMIN_ROOT = '/admin';
const BOUNCED_LOGIN = `${ADMIN_ROOT}?bounced=1`;

// The spec's login-type pages: they never bounce to the login screen.
const PUBLIC_PATHS = [
  /^\/admin\/forgot-password$/,
  /^\/admin\/reset-password\/[^/]+$/,
  /^\/admin\/login-verify$/,
  /^\/admin\/verify(?:\/[^/]+)?$/,
];

function page(layout: 'bare' | 'shell', element: ReactNode): RouteResult {
  return { kind: 'page', layout, element };
}

export function resolveSignedOutRoute(location: AdminLocation): RouteResult {
  if (location.pathname === ADMIN_ROOT) {
    const bounced = new URLSearchParams(location.search).get('bounced') === '1';
    return page('bare', <LoginPage bounced={bounced} />);
  }
  // Forgot password, reset, magic-link and verification screens are not
  // built yet; saying so beats bouncing a logged-out visitor to the login.
  if (PUBLIC_PATHS.some((pattern) => pattern.test(location.pathname))) return page('bare', <NotFoundPage />);
  return { kind: 'redirect', to: BOUNCED_LOGIN, rememberReturnPath: true };
}

export function resolveSignedInRoute(location: AdminLocation, viewer: Viewer, returnPath?: string): RouteResult {
  const home = homePathFor(viewer);
  const organisationName = viewer.organisation?.name ?? null;
  switch (location.pathname) {
    case ADMIN_ROOT:
      return { kind: 'redirect', to: returnPath ?? home };
    case '/admin/dashboard':
      // Guest members have no organisation dashboard.
      if (viewer.role.name === 'GUEST_MEMBER') return { kind: 'redirect', to: home };
      return page('shell', <HomePage organisationName={organisationName} />);
    case '/admin/manage/organisations':
      return page('shell', <HomePage organisationName={organisationName} />);
    default:
      return page('shell', <NotFoundPage />);
  }
}
