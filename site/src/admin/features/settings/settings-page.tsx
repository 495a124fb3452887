import { useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { useStore } from '../../../lib/use-store';
import { $location } from '../../router';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { PasswordForm } from './password-form';
import { ProfileForm } from './profile-form';
import { PROFILE_QUERY, type Profile, type SettingsTab } from './settings-api';
import './settings.css';

type SettingsPageProps = {
  onProfileSaved: () => void;
  onPasswordChanged: () => void;
};

const TABS: readonly { tab: SettingsTab; label: string }[] = [
  { tab: 'profile', label: 'Profile' },
  { tab: 'change_password', label: 'Change Password' },
];

function tabFromHash(hash: string): SettingsTab {
  return hash === '#change_password' ? 'change_password' : 'profile';
}

/**
 * The hash names the tab (#profile, #change_password). Tab links change only the hash, which the
 * browser announces with hashchange; a console link to another hash goes through the router.
 */
function useHashTab(): SettingsTab {
  useStore($location);
  const [, setSeen] = useState(0);
  useEffect(() => {
    const onHash = () => setSeen((count) => count + 1);
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return tabFromHash(window.location.hash);
}

/** /admin/settings: the signed-in user's own profile and password (spec §2, Settings). */
export function SettingsPage({ onProfileSaved, onPasswordChanged }: SettingsPageProps) {
  const requested = useHashTab();
  const [result] = useQuery<{ viewer: Profile | null }>({ query: PROFILE_QUERY });
  const profile = result.data?.viewer ?? undefined;
  // Single-sign-on users have no password here: the tab is not offered and its address shows the profile.
  const tabs = TABS.filter((entry) => entry.tab === 'profile' || !profile?.isSSO);
  const tab = profile?.isSSO ? 'profile' : requested;
  useDocumentTitle([TABS.find((entry) => entry.tab === tab)!.label, 'Settings']);

  useEffect(() => {
    if (profile?.isSSO && window.location.hash === '#change_password') {
      window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}#profile`);
    }
  }, [profile?.isSSO, requested]);

  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>Settings</h1>
      </div>
      <nav className="tabs" aria-label="Settings sections">
        {tabs.map((entry) => (
          <a key={entry.tab} href={`#${entry.tab}`} className="tabs__tab" aria-current={entry.tab === tab ? 'page' : undefined}>
            {entry.label}
          </a>
        ))}
      </nav>
      {!profile ? (
        result.error ? <ErrorBanner message={errorMessage(result.error)} /> : <p className="muted">Loading…</p>
      ) : tab === 'profile' ? (
        // Keyed by user: a form never shows another account's unsaved values.
        <ProfileForm key={profile.id} profile={profile} onSaved={onProfileSaved} />
      ) : (
        <PasswordForm twoFactor={profile.twoFactorAuthenticationActivated} onChanged={onPasswordChanged} />
      )}
    </main>
  );
}
