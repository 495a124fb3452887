import { useEffect, useRef, useState, type ReactNode } from 'react';
import { FALLBACK_ERROR_MESSAGE } from '../../lib/http';
import { useStore } from '../../lib/use-store';
import { signOut } from '../features/auth/session-store';
import { $location, navigate } from '../router';
import { ErrorBanner } from '../ui/error-banner';
import { MissingScreen } from '../ui/missing-screen';
import { organisationsPath } from '../paths';
import { Notices } from '../ui/notices';
import { displayName, isSuperAdmin, type Viewer } from '../viewer';
import { AccountBanners } from './account-banners';
import { $sidebarOpen, setSidebarOpen } from './shell-store';
import { useDisconnect, useGuestAccessStats, useOrganisationName, useOrganisationUserStats } from './shell-data';
import { Sidebar, SIDEBAR_ID } from './sidebar';
import { TopBar } from './top-bar';
import './shell.css';

type AppShellProps = {
  viewer: Viewer;
  /** Set while a super admin works inside one organisation. */
  organisationID?: string | undefined;
  children: ReactNode;
};

const ORGANISATION_NOT_FOUND = 'Organisation is not found';

function bannerText(viewer: Viewer, organisationName: string | undefined): string | undefined {
  if (!organisationName) return undefined;
  return isSuperAdmin(viewer) ? `You are managing organisation: ${organisationName}` : `You are viewing organisation: ${organisationName}`;
}

/**
 * The narrow-screen menu slides over its own toggle: opened, it takes focus (on the current screen's
 * link, else its first); closed with Escape or the backdrop, focus goes back to the toggle. A link
 * followed from it leaves focus to the new screen's heading.
 */
function useMenuFocus(open: boolean) {
  const wasOpen = useRef(false);
  useEffect(() => {
    const menu = document.getElementById(SIDEBAR_ID);
    if (open) {
      const link = menu?.querySelector<HTMLElement>('[aria-current="page"]') ?? menu?.querySelector<HTMLElement>('a, button');
      link?.focus();
    } else if (wasOpen.current && (menu?.contains(document.activeElement) || document.activeElement === document.body)) {
      document.querySelector<HTMLElement>(`[aria-controls="${SIDEBAR_ID}"]`)?.focus();
    }
    wasOpen.current = open;
  }, [open]);
}

// Frame around every signed-in page: sidebar, top bar, account warnings and notices.
export function AppShell({ viewer, organisationID, children }: AppShellProps) {
  const [signingOut, setSigningOut] = useState(false);
  const [error, setError] = useState<string>();
  const sidebarOpen = useStore($sidebarOpen);
  const { name: organisationName, missing: organisationMissing } = useOrganisationName(viewer, organisationID);
  const stats = useOrganisationUserStats(viewer, organisationID);
  const guestAccess = useGuestAccessStats(viewer);
  useDisconnect();

  // A link followed from the narrow-screen menu closes it, in the same render as the new screen:
  // the page is then no longer inert when the new screen's heading takes focus.
  useEffect(() => $location.listen((next, previous) => next.pathname !== previous?.pathname && setSidebarOpen(false)), []);
  useMenuFocus(sidebarOpen);

  useEffect(() => {
    if (!sidebarOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setSidebarOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [sidebarOpen]);

  const onSignOut = async () => {
    setSigningOut(true);
    setError(undefined);
    // Leave the protected page before the session store flips, so the
    // signed-out user sees the plain login rather than the "bounced" prompt.
    const result = await signOut(() => navigate('/admin', { replace: true }));
    if (!result.ok) {
      setSigningOut(false);
      setError(FALLBACK_ERROR_MESSAGE);
    }
  };

  return (
    <div className="admin-shell">
      <Sidebar
        viewer={viewer}
        organisationID={organisationID}
        open={sidebarOpen}
        unassignedReports={stats?.unassignedReports}
        unreadMessages={stats?.unreadMessages}
        guestAccess={guestAccess}
        signingOut={signingOut}
        onSignOut={() => void onSignOut()}
      />
      {sidebarOpen && <div className="sidebar-backdrop" aria-hidden="true" onClick={() => setSidebarOpen(false)} />}
      {/* Behind the open menu the page is out of reach, as it is out of sight. */}
      <div className="admin-shell__main" inert={sidebarOpen}>
        <TopBar
          name={displayName(viewer)}
          roleLabel={viewer.role.label}
          banner={bannerText(viewer, organisationName)}
          sidebarOpen={sidebarOpen}
          signingOut={signingOut}
          onToggleSidebar={() => setSidebarOpen(!sidebarOpen)}
          onSignOut={() => void onSignOut()}
        />
        <AccountBanners viewer={viewer} />
        {error && (
          <div className="admin-page">
            <ErrorBanner message={error} />
          </div>
        )}
        {/* Every organisation-scoped screen of an id that names no organisation (spec §2 Organisations). */}
        {organisationMissing ? (
          <main className="admin-page">
            <MissingScreen message={ORGANISATION_NOT_FOUND} returnTo={organisationsPath()} />
          </main>
        ) : (
          children
        )}
      </div>
      <Notices />
    </div>
  );
}
