import { useCallback, useEffect } from 'react';
import { postJsonKeepalive } from '../lib/http';

// A neutral page to land on. It is the only other origin Lantern ever sends
// anyone to, and only as a top-level navigation: nothing is loaded into our page.
const EXIT_URL = 'https://duckduckgo.com/';
const REPORT_FINISH_URL = '/api/auth/report_finish';

type QuickExitProps = {
  // Reporter pages inside a form pass its id so the server clears that session.
  reportFormID?: string;
  // A second copy (inside a modal dialog, which makes the page behind it
  // inert) must not register the Escape shortcut twice.
  shortcut?: boolean;
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

// Always visible on reporter pages, and Escape does the same from anywhere on
// the page, because someone may need to hide what they are doing in a second.
export function QuickExit({ reportFormID, shortcut = true }: QuickExitProps) {
  const leave = useCallback(() => quickExit(reportFormID), [reportFormID]);

  useEffect(() => {
    if (!shortcut) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.isComposing) leave();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [leave, shortcut]);

  return (
    <button type="button" className="quick-exit" onClick={leave} title="Leave this site now (Esc)">
      Quick Exit
    </button>
  );
}
