import { richTextElement } from '../../forms/rich-text-dom';
import { h } from '../../lib/dom';
import { dialogQuickExit, openModal } from './modal-dialog';

/**
 * The organisation's welcome note, open when the page loads. Loaded only for organisations that
 * have one, with the rich text renderer it needs.
 */
export function openWelcomeDialog(host: Element, content: string): void {
  const closeButton = h('button', { type: 'button', class: 'button' }, 'Close');
  const dialog = h(
    'dialog',
    { class: 'modal', 'aria-labelledby': 'welcome-modal-title' },
    dialogQuickExit(),
    h('h2', { id: 'welcome-modal-title' }, 'Welcome'),
    richTextElement(content),
    h('div', { class: 'actions' }, closeButton),
  );
  const close = openModal(host, dialog, closeButton);
  closeButton.addEventListener('click', close);
}
