import { useEffect, useRef, type RefObject } from 'react';

/** The page's main heading, where focus goes when a dialog closes that nothing on the page opened. */
const FALLBACK_FOCUS_SELECTOR = 'main h1';

function focusAfterClose(opener: Element | null): void {
  const target = opener instanceof HTMLElement && opener.isConnected && opener !== document.body ? opener : document.querySelector<HTMLElement>(FALLBACK_FOCUS_SELECTOR);
  if (!target) return;
  // A heading is not focusable by itself; tabindex -1 lets a script focus it without adding a tab stop.
  if (!target.matches('a[href], button, input, select, textarea, [tabindex]')) target.tabIndex = -1;
  target.focus();
}

/**
 * Opens a native modal <dialog> when it mounts (focus trap and inert background come free) and,
 * when it unmounts, gives focus back to what opened it. The page unmounts its dialogs on close,
 * which takes them out of the DOM before the browser's own focus return could run, so it is done here.
 */
export function useModalDialog(initialFocus: RefObject<HTMLElement | null>): RefObject<HTMLDialogElement | null> {
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const opener = document.activeElement;
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    // showModal() focuses the first button, which is Quick Exit: an Enter meant
    // for the dialog must not send the reporter away.
    initialFocus.current?.focus();
    return () => focusAfterClose(opener);
  }, [initialFocus]);
  return dialogRef;
}
