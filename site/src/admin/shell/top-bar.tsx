type TopBarProps = {
  name: string;
  roleLabel: string;
  signingOut: boolean;
  onSignOut: () => void;
};

export function TopBar({ name, roleLabel, signingOut, onSignOut }: TopBarProps) {
  return (
    <header className="admin-top-bar">
      <span className="admin-top-bar__brand">Lantern</span>
      <div className="admin-top-bar__user">
        <span className="admin-top-bar__identity">
          <span className="admin-top-bar__name">{name}</span>
          <span className="admin-top-bar__role">{roleLabel}</span>
        </span>
        <button type="button" className="button button--small button--secondary" onClick={onSignOut} disabled={signingOut}>
          Sign Out
        </button>
      </div>
    </header>
  );
}
