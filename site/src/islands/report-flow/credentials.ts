import { saveBlob } from '../../lib/download';
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

export function credentialsFileName(reportID: string): string {
  return `Report ${reportID} credentials.txt`;
}

/** Saves the credentials as a text file made in the browser: nothing goes over the network. */
export function downloadCredentials(credentials: ReportCredentials): void {
  const text = `Report ID: ${credentials.reportID}\nPassword: ${credentials.password}\n`;
  saveBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), credentialsFileName(credentials.reportID));
}
