import { useCallback, useEffect } from 'react';
import { isQuickExitEscape, quickExit } from './quick-exit-actions';

type QuickExitProps = {
  // Reporter pages inside a form pass its id so the server clears that session.
  reportFormID?: string | undefined;
  // A second copy (inside a modal dialog, which makes the page behind it
  // inert) must not register the Escape shortcut twice, nor sit in a page bar.
  shortcut?: boolean;
  /** Runs just before leaving, whether by button or Escape (the follow-up area closes its socket). */
  onBeforeExit?: (() => void) | undefined;
};

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
