import { useEffect, useRef } from 'react';
import { SIDEBAR_ID } from './sidebar';
import { UserMenu } from './user-menu';

/**
 * The bar sticks to the top of the window, so whatever the browser scrolls to (a focused control,
 * a link's target) must stop below it (WCAG 2.4.11). Its height changes with the width (the banner
 * wraps on phones), so it is measured and shell.css keeps that much scroll padding.
 */
function useStickyHeight() {
  const bar = useRef<HTMLElement>(null);
  useEffect(() => {
    const element = bar.current;
    if (!element) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => root.style.setProperty('--admin-top-bar-height', `${element.offsetHeight}px`));
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--admin-top-bar-height');
    };
  }, []);
  return bar;
}

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
  const bar = useStickyHeight();
  return (
    <header ref={bar} className="admin-top-bar">
      <button
        type="button"
        className="admin-top-bar__menu"
        aria-expanded={sidebarOpen}
        aria-controls={SIDEBAR_ID}
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
