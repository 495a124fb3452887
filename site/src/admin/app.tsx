import { useEffect, useMemo, useRef } from 'react';
import { Provider } from 'urql';
import { useStore } from '../lib/use-store';
import { $session, recheckSession, restoreSession, type SessionState } from './features/auth/session-store';
import { createAdminClient } from './graphql-client';
import { $location, navigate, startRouter, type AdminLocation } from './router';
import { resolveSignedInRoute, resolveSignedOutRoute, type RouteResult } from './routes';
import { AppShell } from './shell/app-shell';
import { clearNotices } from './ui/notice-store';
import { useScreenFocus } from './ui/screen-focus';
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
  const viewerID = session.status === 'signed-in' ? session.viewer.id : undefined;
  // One client (and so one cache) per signed-in user: signing in again starts from nothing.
  const client = useMemo(() => (viewerID ? createAdminClient(() => void recheckSession()) : undefined), [viewerID]);

  useEffect(() => {
    startRouter();
    void restoreSession();
  }, []);

  useEffect(() => {
    if (!viewerID) clearNotices();
  }, [viewerID]);

  const announcement = useScreenFocus(location.pathname);
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

  return (
    <>
      <Screen session={session} route={route} client={client} />
      {/* Says which tab of a report is now shown; a new screen says so by focusing its heading. */}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </>
  );
}

function Screen({ session, route, client }: { session: SessionState; route: RouteResult | undefined; client: ReturnType<typeof createAdminClient> | undefined }) {
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
  if (route.layout === 'bare' || session.status !== 'signed-in' || !client) return route.element;
  return (
    <Provider value={client}>
      <AppShell viewer={session.viewer} organisationID={route.organisationID}>
        {route.element}
      </AppShell>
    </Provider>
  );
}
