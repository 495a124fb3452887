import { useEffect, useId, useRef, useState } from 'react';
import { settingsPath } from '../paths';
import { Link } from '../ui/link';

type UserMenuProps = {
  name: string;
  roleLabel: string;
  signingOut: boolean;
  onSignOut: () => void;
};

// The top bar's user menu: Edit Profile (the settings screen) and Sign Out.
export function UserMenu({ name, roleLabel, signingOut, onSignOut }: UserMenuProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="user-menu" ref={root}>
      <button ref={toggle} type="button" className="user-menu__toggle" aria-expanded={open} aria-controls={menuId} onClick={() => setOpen(!open)}>
        <span className="user-menu__identity">
          <span className="user-menu__name">{name}</span>
          <span className="user-menu__role">{roleLabel}</span>
        </span>
        <span className="user-menu__caret" aria-hidden="true">
          ▾
        </span>
      </button>
      <ul id={menuId} className="user-menu__list" hidden={!open}>
        {/* Following the link closes the menu; the click reaches the item before the page changes. */}
        <li onClick={() => setOpen(false)}>
          <Link to={settingsPath('profile')} className="user-menu__item">
            Edit Profile
          </Link>
        </li>
        <li>
          <button type="button" className="user-menu__item" onClick={onSignOut} disabled={signingOut}>
            {signingOut ? 'Signing out…' : 'Sign Out'}
          </button>
        </li>
      </ul>
    </div>
  );
}
