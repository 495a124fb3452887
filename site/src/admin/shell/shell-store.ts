import { atom } from 'nanostores';

// The frame's own state: whether the narrow-screen sidebar is open, and whether the two-factor
// warning was dismissed in this browser session (sessionStorage, so it returns in a new tab set).

const TWO_FACTOR_DISMISSED_KEY = 'lantern.admin.two-factor-warning-dismissed';

function readDismissed(): boolean {
  try {
    return window.sessionStorage.getItem(TWO_FACTOR_DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

export const $sidebarOpen = atom(false);
export const $twoFactorWarningDismissed = atom(readDismissed());

export function setSidebarOpen(open: boolean): void {
  $sidebarOpen.set(open);
}

export function dismissTwoFactorWarning(): void {
  try {
    window.sessionStorage.setItem(TWO_FACTOR_DISMISSED_KEY, '1');
  } catch {
    // Storage can be switched off; the warning then stays away until the next page load.
  }
  $twoFactorWarningDismissed.set(true);
}
