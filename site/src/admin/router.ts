import { atom } from 'nanostores';

// The console's own router: the server answers every /admin/* path with the
// same shell, and the browser's history API does the rest. A store holds the
// current location so any component can react to navigation.

export type AdminLocation = { pathname: string; search: string };

function currentLocation(): AdminLocation {
  return { pathname: normalisePathname(window.location.pathname), search: window.location.search };
}

// '/admin/dashboard/' and '/admin/dashboard' are the same page.
export function normalisePathname(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export const $location = atom<AdminLocation>(currentLocation());

/**
 * A screen with unsaved work can stop in-app navigation: the blocker answers whether to leave
 * (it may ask the user). Only one screen edits at a time, so there is one slot.
 */
let blocker: (() => boolean) | null = null;

export function setNavigationBlocker(next: (() => boolean) | null): void {
  blocker = next;
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (blocker && !blocker()) return;
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  $location.set(currentLocation());
  if (!options.replace) window.scrollTo(0, 0);
}

let listening = false;

export function startRouter(): void {
  if (listening) return;
  listening = true;
  window.addEventListener('popstate', () => {
    // Back and forward have already moved the address: staying means putting it back.
    const shown = $location.get();
    if (blocker && !blocker()) window.history.pushState(null, '', shown.pathname + shown.search);
    else $location.set(currentLocation());
  });
}

export function goBack(fallback: string): void {
  // history.length counts this entry; with nothing before it, back() would do nothing.
  if (window.history.length > 1) window.history.back();
  else navigate(fallback, { replace: true });
}
