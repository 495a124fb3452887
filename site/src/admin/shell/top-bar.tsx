import { UserMenu } from './user-menu';

type TopBarProps = {
  name: string;
  roleLabel: string;
  /** 'You are managing organisation: …' (super admin) or the viewing variant; none without an organisation. */
  banner?: string;
  sidebarOpen: boolean;
  signingOut: boolean;
  onToggleSidebar: () => void;
  onSignOut: () => void;
};

export function TopBar({ name, roleLabel, banner, sidebarOpen, signingOut, onToggleSidebar, onSignOut }: TopBarProps) {
  return (
    <header className="admin-top-bar">
      <button
        type="button"
        className="admin-top-bar__menu"
        aria-expanded={sidebarOpen}
        aria-controls="admin-sidebar"
        aria-label={sidebarOpen ? 'Close menu' : 'Open menu'}
        onClick={onToggleSidebar}
      >
        <span className="hamburger" aria-hidden="true" />
      </button>
      <span className="admin-top-bar__brand">Lantern</span>
      {banner && <p className="admin-top-bar__banner">{banner}</p>}
      <UserMenu name={name} roleLabel={roleLabel} signingOut={signingOut} onSignOut={onSignOut} />
    </header>
  );
}
