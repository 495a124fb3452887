import type { MouseEvent } from 'react';
import { useStore } from '../../lib/use-store';
import { rememberVerifyReturnPath } from '../features/account-access/account-access-api';
import { $location, navigate } from '../router';
import { settingsPath, VERIFY_ACCOUNT_PATH } from '../paths';
import { Link } from '../ui/link';
import type { Viewer } from '../viewer';
import { $twoFactorWarningDismissed, dismissTwoFactorWarning } from './shell-store';

function openVerify(event: MouseEvent<HTMLAnchorElement>): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  const here = $location.get();
  rememberVerifyReturnPath(`${here.pathname}${here.search}`);
  navigate(VERIFY_ACCOUNT_PATH);
}

// Account warnings under the top bar. The two-factor warning links to /admin/settings, the
// verification banner to /admin/verify (spec §2).
export function AccountBanners({ viewer }: { viewer: Viewer }) {
  const dismissed = useStore($twoFactorWarningDismissed);
  const showTwoFactor = !viewer.twoFactorAuthenticationActivated && !dismissed;
  if (viewer.verified && !showTwoFactor) return null;
  return (
    <div className="account-banners">
      {!viewer.verified && (
        <p className="banner banner--warning" role="status">
          {/* The verify screen returns here once the account is verified (spec §2). */}
          <a href={VERIFY_ACCOUNT_PATH} onClick={openVerify}>
            Your account needs to be be verified, click here to verify now
          </a>
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
