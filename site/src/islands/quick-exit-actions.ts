import { ESCAPE_CLOSES_ATTRIBUTE } from '../forms/escape-closes';
import { postJsonKeepalive } from '../lib/http';

// What Quick Exit does, apart from any page framework: the React button (quick-exit.tsx) and the
// organisation page, which has no React, both call these.

// A neutral page to land on. It is the only other origin Lantern ever sends
// anyone to, and only as a top-level navigation: nothing is loaded into our page.
const EXIT_URL = 'https://duckduckgo.com/';
const REPORT_FINISH_URL = '/api/auth/report_finish';

/** What this tab kept on this origin (the language chosen): Quick Exit and Leave take it too. Credentials are never stored (decision 066). */
export function clearTabStorage(): void {
  try {
    window.sessionStorage.clear();
  } catch {
    // Storage may be disabled; there is then nothing to clear.
  }
}

/** Ends the reporter's session on the server; the request survives the page going away. */
export function endReportSession(reportFormID?: string): void {
  postJsonKeepalive(REPORT_FINISH_URL, reportFormID ? { reportFormID } : {});
}

export function quickExit(reportFormID?: string): void {
  endReportSession(reportFormID);
  clearTabStorage();
  // replace() rather than assign(): the Back button must not bring the page back.
  window.location.replace(EXIT_URL);
}

/** Whether this Escape means "leave now": nothing open on the page claims it first. */
export function isQuickExitEscape(event: KeyboardEvent): boolean {
  if (event.key !== 'Escape' || event.isComposing || event.defaultPrevented) return false;
  return document.querySelector(`dialog[open], [${ESCAPE_CLOSES_ATTRIBUTE}]`) === null;
}
