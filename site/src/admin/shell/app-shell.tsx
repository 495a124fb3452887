import { useState, type ReactNode } from 'react';
import { signOut } from '../features/auth/session-store';
import { displayName, type Viewer } from '../features/auth/viewer';
import { FALLBACK_ERROR_MESSAGE } from '../../lib/http';
import { ErrorBanner } from '../ui/error-banner';
import { navigate } from '../router';
import { TopBar } from './top-bar';

type AppShellProps = {
  viewer: Viewer;
  children: ReactNode;
};

// Frame around every signed-in page. The sidebar and notifications join it
// when the console grows.
export function AppShell({ viewer, children }: AppShellProps) {
  const [signingOut, setSigningOut] = useState(false);
  const [error, setError] = useState<string>();

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
      <TopBar name={displayName(viewer)} roleLabel={viewer.role.label} signingOut={signingOut} onSignOut={onSignOut} />
      {error && (
        <div className="container">
          <ErrorBanner message={error} />
        </div>
      )}
      {children}
    </div>
  );
}
