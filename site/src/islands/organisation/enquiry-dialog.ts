import * as v from 'valibot';
import { richTextElement } from '../../forms/rich-text-dom';
import type { TranslatedText } from '../../forms/translated-text';
import { h } from '../../lib/dom';
import { graphqlRequest } from '../../lib/graphql';
import { FALLBACK_ERROR_MESSAGE } from '../../lib/http';
import { dialogQuickExit, openModal } from './modal-dialog';
import { withLanguage } from './organisation-language';

// verifyToken: a solved proof-of-work challenge, filled in by the HTTP helper when the server asks for one.
const SEND_ENQUIRY_MUTATION = `mutation GuestSendEnquiry($organisationID: ID!, $message: String!, $verifyToken: String) {
  guestSendEnquiry(organisationID: $organisationID, message: $message, verifyToken: $verifyToken) { reportID pin } }`;
const resultSchema = v.object({ reportID: v.string(), pin: v.nullish(v.string(), null) });
type EnquiryResult = v.InferOutput<typeof resultSchema>;

/** `titleText` and `welcomeText` carry the `lang` of a translated title and message. */
export type EnquiryDialogOptions = { organisationID: string; title: string; welcomeMessage: string; titleText?: TranslatedText | undefined; welcomeText?: TranslatedText | undefined };

async function sendEnquiry(organisationID: string, message: string): Promise<{ ok: true; result: EnquiryResult } | { ok: false; message: string }> {
  const response = await graphqlRequest(SEND_ENQUIRY_MUTATION, { organisationID, message });
  if (!response.ok) return response;
  const parsed = v.safeParse(resultSchema, (response.data as { guestSendEnquiry?: unknown }).guestSendEnquiry);
  return parsed.success ? { ok: true, result: parsed.output } : { ok: false, message: FALLBACK_ERROR_MESSAGE };
}

/**
 * The general enquiry ('Ask a Question'), loaded when the reporter first opens it. Each opening
 * builds a new dialog, so it always starts from an empty form.
 */
export function openEnquiryDialog(host: Element, { organisationID, title, welcomeMessage, titleText, welcomeText }: EnquiryDialogOptions): void {
  const message = h('textarea', { id: 'enquiry-message', class: 'field__input enquiry-message', rows: '6', autocomplete: 'off' });
  const field = h('div', { class: 'field' }, h('label', { class: 'field__label', for: 'enquiry-message' }, 'Message'), message);
  const alert = h('p', { class: 'alert alert--error', role: 'alert' });
  const cancel = h('button', { type: 'button', class: 'button button--secondary' }, 'Cancel');
  const send = h('button', { type: 'submit', class: 'button' }, 'Send');
  const form = h(
    'form',
    { class: 'stack', novalidate: true, autocomplete: 'off' },
    withLanguage(h('h2', { id: 'enquiry-modal-title' }, title), titleText),
    withLanguage(richTextElement(welcomeMessage), welcomeText),
    field,
    h('div', { class: 'actions modal__actions' }, cancel, send),
  );
  const dialog = h('dialog', { class: 'modal', 'aria-labelledby': 'enquiry-modal-title' }, dialogQuickExit(), form);
  // Focus starts in the message field, not on the dialog's first button (Quick Exit).
  const close = openModal(host, dialog, message);
  cancel.addEventListener('click', close);
  // Leaving the page closes the dialog, so Back cannot bring back the new enquiry's report ID and
  // password, nor a message being written (decision 066). Closing twice does nothing.
  window.addEventListener('pagehide', close, { once: true });

  const fieldError = h('p', { class: 'field__error', id: 'enquiry-message-error' }, 'Required');
  const showFieldError = (shown: boolean) => {
    if (shown) {
      message.setAttribute('aria-invalid', 'true');
      message.setAttribute('aria-describedby', fieldError.id);
      field.append(fieldError);
    } else {
      message.removeAttribute('aria-invalid');
      message.removeAttribute('aria-describedby');
      fieldError.remove();
    }
  };
  const showError = (text: string | undefined) => {
    if (text === undefined) return alert.remove();
    alert.textContent = text;
    field.before(alert);
  };
  const setBusy = (busy: boolean) => {
    send.disabled = busy;
    send.textContent = busy ? 'Sending…' : 'Send';
  };

  // A flag, not the button's state: a double click lands before the button is disabled.
  let sending = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (sending) return;
    const text = message.value.trim();
    if (text === '') return showFieldError(true);
    showFieldError(false);
    showError(undefined);
    sending = true;
    setBusy(true);
    const response = await sendEnquiry(organisationID, text);
    sending = false;
    setBusy(false);
    if (!response.ok) return showError(response.message);
    form.replaceWith(sentPanel(response.result, close));
    // The form and its focused field are gone: the panel's heading takes focus, so it is read out.
    dialog.querySelector<HTMLElement>('#enquiry-modal-title')?.focus();
  });
}

function sentPanel(result: EnquiryResult, close: () => void): HTMLElement {
  const closeButton = h('button', { type: 'button', class: 'button' }, 'Close');
  closeButton.addEventListener('click', close);
  const value = (text: string) => h('strong', { class: 'enquiry-steps__value' }, text);
  return h(
    'div',
    { class: 'stack' },
    h('h2', { id: 'enquiry-modal-title', tabindex: '-1' }, 'Message Sent'),
    h(
      'p',
      { class: 'alert', role: 'note' },
      'Keep the details below somewhere safe. They are shown only once, and you need them to read the answer to your message.',
    ),
    h(
      'ol',
      { class: 'enquiry-steps' },
      h('li', {}, 'Go to the ', h('a', { href: '/report/login' }, 'login page'), '.'),
      h('li', {}, 'Log in with the report ID ', value(result.reportID)),
      result.pin && h('li', {}, 'and the password ', value(result.pin)),
    ),
    h('div', { class: 'actions modal__actions' }, closeButton),
  );
}
