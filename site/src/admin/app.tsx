import { useEffect, useRef } from 'react';
import { useStore } from '../lib/use-store';
import { $session, restoreSession, type SessionState } from './features/auth/session-store';
import { $location, navigate, startRouter, type AdminLocation } from './router';
import { resolveSignedInRoute, resolveSignedOutRoute, type RouteResult } from './routes';
import { AppShell } from './shell/app-shell';
import { StatusScreen } from './ui/status-screen';

function resolve(session: SessionState, location: AdminLocation, returnPath?: string): RouteResult | undefined {
  if (session.status === 'signed-out') return resolveSignedOutRoute(location);
  if (session.status === 'signed-in') return resolveSignedInRoute(location, session.viewer, returnPath);
  return undefined;
}

// The whole admin console: one client-only island behind /admin/*.
export function AdminApp() {
  const session = useStore($session);
  const location = useStore($location);
  // Where a signed-out visitor was headed, to return there after login.
  const returnPath = useRef<string>(undefined);

  useEffect(() => {
    startRouter();
    void restoreSession();
  }, []);

  const route = resolve(session, location, returnPath.current);
  const redirectTo = route?.kind === 'redirect' ? route.to : undefined;

  useEffect(() => {
    if (redirectTo === undefined) return;
    // Re-read the stores: a sign-out changes location and session together,
    // and only the latest pair decides where to go.
    const current = resolve($session.get(), $location.get(), returnPath.current);
    if (current?.kind !== 'redirect') return;
    const from = $location.get();
    if (current.rememberReturnPath) returnPath.current = `${from.pathname}${from.search}`;
    else returnPath.current = undefined;
    navigate(current.to, { replace: true });
  }, [redirectTo, session, location]);

  if (session.status === 'checking') return <StatusScreen>Loading…</StatusScreen>;
  if (session.status === 'error') {
    return (
      <StatusScreen>
        <p className="alert alert--error">{session.message}</p>
        <button type="button" className="button" onClick={() => void restoreSession()}>
          Try again
        </button>
      </StatusScreen>
    );
  }
  if (route === undefined || route.kind === 'redirect') return null;
  if (route.layout === 'bare' || session.status !== 'signed-in') return route.element;
  return <AppShell viewer={session.viewer}>{route.element}</AppShell>;
}
