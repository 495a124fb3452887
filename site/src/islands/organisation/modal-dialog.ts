import { h } from '../../lib/dom';
import { quickExit } from '../quick-exit-actions';

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
 * Because the page behind a modal is inert, every dialog carries its own Quick Exit button; it is
 * not the page's Escape shortcut (Escape closes the dialog, the browser's own behaviour).
 */
export function dialogQuickExit(): HTMLElement {
  const button = h('button', { type: 'button', class: 'quick-exit', title: 'Leave this site now (Esc)' }, 'Quick Exit');
  button.addEventListener('click', () => quickExit());
  return h('div', { class: 'modal__quick-exit' }, button);
}

/**
 * Shows a native modal <dialog> (focus trap and inert background come free) inside `host`, focuses
 * `initialFocus` rather than the first button (Quick Exit: an Enter meant for the dialog must not
 * send the reporter away), and returns the function that closes it. Closing, by a button or by
 * Escape, takes the dialog out of the page, so opening it again starts afresh, and gives focus back
 * to what opened it.
 */
export function openModal(host: Element, dialog: HTMLDialogElement, initialFocus: HTMLElement): () => void {
  const opener = document.activeElement;
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    dialog.remove();
    focusAfterClose(opener);
  };
  dialog.addEventListener('close', close);
  host.append(dialog);
  dialog.showModal();
  initialFocus.focus();
  return close;
}
