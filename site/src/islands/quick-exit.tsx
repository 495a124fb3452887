import { useCallback, useEffect } from 'react';
import { ESCAPE_CLOSES_ATTRIBUTE } from '../forms/escape-closes';
import { postJsonKeepalive } from '../lib/http';

// A neutral page to land on. It is the only other origin Lantern ever sends
// anyone to, and only as a top-level navigation: nothing is loaded into our page.
const EXIT_URL = 'https://duckduckgo.com/';
const REPORT_FINISH_URL = '/api/auth/report_finish';


type QuickExitProps = {
  // Reporter pages inside a form pass its id so the server clears that session.
  reportFormID?: string | undefined;
  // A second copy (inside a modal dialog, which makes the page behind it
  // inert) must not register the Escape shortcut twice, nor sit in a page bar.
  shortcut?: boolean;
  /** Runs just before leaving, whether by button or Escape (the follow-up area closes its socket). */
  onBeforeExit?: (() => void) | undefined;
};

/** The finish page keeps a new report's credentials for this tab only; leaving drops them too. */
export function clearTabStorage(): void {
  try {
    window.sessionStorage.clear();
  } catch {
    // Storage may be disabled; there is then nothing to clear.
  }
}

export function quickExit(reportFormID?: string): void {
  postJsonKeepalive(REPORT_FINISH_URL, reportFormID ? { reportFormID } : {});
  clearTabStorage();
  // replace() rather than assign(): the Back button must not bring the page back.
  window.location.replace(EXIT_URL);
}

/** Whether this Escape means "leave now": nothing open on the page claims it first. */
export function isQuickExitEscape(event: KeyboardEvent): boolean {
  if (event.key !== 'Escape' || event.isComposing || event.defaultPrevented) return false;
  return document.querySelector(`dialog[open], [${ESCAPE_CLOSES_ATTRIBUTE}]`) === null;
}

// Always visible on reporter pages, and Escape does the same from anywhere on
// the page, because someone may need to hide what they are doing in a second.
// The page copy sits in a bar of its own at the top, so it never covers content.
export function QuickExit({ reportFormID, shortcut = true, onBeforeExit }: QuickExitProps) {
  const leave = useCallback(() => {
    onBeforeExit?.();
    quickExit(reportFormID);
  }, [reportFormID, onBeforeExit]);

  useEffect(() => {
    if (!shortcut) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (isQuickExitEscape(event)) leave();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [leave, shortcut]);

  const button = (
    <button type="button" className="quick-exit" onClick={leave} title="Leave this site now (Esc)">
      Quick Exit
    </button>
  );
  return shortcut ? <header className="quick-exit-bar">{button}</header> : button;
}
