import { richTextElement } from '../../forms/rich-text-dom';
import type { TranslatedText } from '../../forms/translated-text';
import { h } from '../../lib/dom';
import { dialogQuickExit, openModal } from './modal-dialog';
import { withLanguage } from './organisation-language';

/**
 * The organisation's welcome note, open when the page loads. Loaded only for organisations that
 * have one, with the rich text renderer it needs.
 */
export function openWelcomeDialog(host: Element, content: string, text?: TranslatedText): void {
  const closeButton = h('button', { type: 'button', class: 'button' }, 'Close');
  const dialog = h(
    'dialog',
    { class: 'modal', 'aria-labelledby': 'welcome-modal-title' },
    dialogQuickExit(),
    h('h2', { id: 'welcome-modal-title' }, 'Welcome'),
    withLanguage(richTextElement(content), text),
    h('div', { class: 'actions' }, closeButton),
  );
  const close = openModal(host, dialog, closeButton);
  closeButton.addEventListener('click', close);
}
