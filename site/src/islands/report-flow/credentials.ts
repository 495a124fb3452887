import type { ReportCredentials } from './report-api';

// The report ID and password are shown once, on the finish page. They are kept
// in sessionStorage (this tab only, gone when it closes) so a reload of the
// finish page still shows them, and never in localStorage or a cookie.

const STORAGE_PREFIX = 'lantern-report-credentials:';

export function storeCredentials(formID: string, credentials: ReportCredentials): void {
  try {
    window.sessionStorage.setItem(STORAGE_PREFIX + formID, JSON.stringify(credentials));
  } catch {
    // Storage may be disabled; the page still has them in memory.
  }
}

export function readCredentials(formID: string): ReportCredentials | undefined {
  try {
    const raw = window.sessionStorage.getItem(STORAGE_PREFIX + formID);
    const value: unknown = raw ? JSON.parse(raw) : undefined;
    if (typeof value === 'object' && value !== null && 'reportID' in value && 'password' in value) {
      const { reportID, password } = value;
      if (typeof reportID === 'string' && typeof password === 'string') return { reportID, password };
    }
  } catch {
    // Unreadable storage counts as nothing stored.
  }
  return undefined;
}
