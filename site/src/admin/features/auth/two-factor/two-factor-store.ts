import { atom } from 'nanostores';

// Whether this tab still owes the recovery-code download. Set when an authenticator is confirmed,
// cleared by Next after Download; kept in sessionStorage so a reload on the download page shows it
// again (with a new code, since the one shown before was never saved) instead of skipping it.

const OWED_KEY = 'lantern.admin.recovery-code-owed';

function readOwed(): string | null {
  try {
    return window.sessionStorage.getItem(OWED_KEY);
  } catch {
    return null;
  }
}

/** The id of the user who owes the download in this tab, if any (another user signing in here owes nothing). */
export const $recoveryCodeOwed = atom<string | null>(typeof window === 'undefined' ? null : readOwed());

export function setRecoveryCodeOwed(owed: string | null): void {
  try {
    if (owed) window.sessionStorage.setItem(OWED_KEY, owed);
    else window.sessionStorage.removeItem(OWED_KEY);
  } catch {
    // Storage refused (private mode): the in-memory flag still holds for this page.
  }
  $recoveryCodeOwed.set(owed);
}
