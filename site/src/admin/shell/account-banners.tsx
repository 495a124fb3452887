import { useStore } from '../../lib/use-store';
import { settingsPath } from '../paths';
import { Link } from '../ui/link';
import type { Viewer } from '../viewer';
import { $twoFactorWarningDismissed, dismissTwoFactorWarning } from './shell-store';

// Account warnings under the top bar. The two-factor warning links to /admin/settings (spec §2);
// /admin/verify is not built yet, so the verification banner says what is wrong without a dead link.
export function AccountBanners({ viewer }: { viewer: Viewer }) {
  const dismissed = useStore($twoFactorWarningDismissed);
  const showTwoFactor = !viewer.twoFactorAuthenticationActivated && !dismissed;
  if (viewer.verified && !showTwoFactor) return null;
  return (
    <div className="account-banners">
      {!viewer.verified && (
        <p className="banner banner--warning" role="status">
          Your account needs to be be verified, click here to verify now
        </p>
      )}
      {showTwoFactor && (
        <div className="banner banner--warning" role="status">
          <div>
            <strong className="banner__title">
              <Link to={settingsPath('profile')}>Two-Factor Authentication Not Activated</Link>
            </strong>
            <span className="banner__text">A second step at sign-in keeps reports safe even if your password is exposed.</span>
          </div>
          <button type="button" className="banner__dismiss" aria-label="Dismiss two-factor authentication warning" onClick={dismissTwoFactorWarning}>
            ×
          </button>
        </div>
      )}
    </div>
  );
}
