import { useEffect, useRef, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import { RichText } from '../forms/rich-text';
import { graphqlRequest } from '../lib/graphql';
import { FALLBACK_ERROR_MESSAGE } from '../lib/http';
import { QuickExit } from './quick-exit';
import { useModalDialog } from './use-modal-dialog';

// verifyToken: a solved proof-of-work challenge, filled in by the HTTP helper when the server asks for one.
const SEND_ENQUIRY_MUTATION = `mutation GuestSendEnquiry($organisationID: ID!, $message: String!, $verifyToken: String) {
  guestSendEnquiry(organisationID: $organisationID, message: $message, verifyToken: $verifyToken) { reportID pin } }`;
const resultSchema = v.object({ reportID: v.string(), pin: v.nullish(v.string(), null) });
type EnquiryResult = v.InferOutput<typeof resultSchema>;

type EnquiryModalProps = {
  organisationID: string;
  title: string;
  welcomeMessage: string;
  onClose: () => void;
};

async function sendEnquiry(organisationID: string, message: string): Promise<{ ok: true; result: EnquiryResult } | { ok: false; message: string }> {
  const response = await graphqlRequest(SEND_ENQUIRY_MUTATION, { organisationID, message });
  if (!response.ok) return response;
  const parsed = v.safeParse(resultSchema, (response.data as { guestSendEnquiry?: unknown }).guestSendEnquiry);
  return parsed.success ? { ok: true, result: parsed.output } : { ok: false, message: FALLBACK_ERROR_MESSAGE };
}

// The general enquiry ('Ask a Question'). The page unmounts the dialog on
// close, so opening it again always starts from an empty form.
export function EnquiryModal({ organisationID, title, welcomeMessage, onClose }: EnquiryModalProps) {
  const messageRef = useRef<HTMLTextAreaElement>(null);
  // Focus starts in the message field, not on the dialog's first button (Quick Exit).
  const dialogRef = useModalDialog(messageRef);
  const sending = useRef(false);
  const [message, setMessage] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<EnquiryResult>();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // A ref, not state: a double click lands before React re-renders.
    if (sending.current) return;
    if (message.trim() === '') return setFieldError('Required');
    setFieldError(undefined);
    setError(undefined);
    sending.current = true;
    setBusy(true);
    const response = await sendEnquiry(organisationID, message.trim());
    sending.current = false;
    setBusy(false);
    if (!response.ok) return setError(response.message);
    setSent(response.result);
  };

  return (
    <dialog ref={dialogRef} className="modal" aria-labelledby="enquiry-modal-title" onClose={onClose}>
      <div className="modal__quick-exit">
        <QuickExit shortcut={false} />
      </div>
      {sent ? (
        <EnquirySent result={sent} onClose={onClose} />
      ) : (
        <form className="stack" noValidate autoComplete="off" onSubmit={submit}>
          <h2 id="enquiry-modal-title">{title}</h2>
          <RichText html={welcomeMessage} />
          {error && (
            <p className="alert alert--error" role="alert">
              {error}
            </p>
          )}
          <div className="field">
            <label className="field__label" htmlFor="enquiry-message">
              Message
            </label>
            <textarea
              ref={messageRef}
              id="enquiry-message"
              className="field__input enquiry-message"
              rows={6}
              value={message}
              autoComplete="off"
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? 'enquiry-message-error' : undefined}
              onChange={(event) => setMessage(event.target.value)}
            />
            {fieldError && (
              <p className="field__error" id="enquiry-message-error">
                {fieldError}
              </p>
            )}
          </div>
          <div className="actions modal__actions">
            <button type="button" className="button button--secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button" disabled={busy}>
              {busy ? 'Sending…' : 'Send'}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}

function EnquirySent({ result, onClose }: { result: EnquiryResult; onClose: () => void }) {
  // The form and its focused field are gone: the panel's heading takes focus, so it is read out.
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="stack">
      <h2 id="enquiry-modal-title" ref={headingRef} tabIndex={-1}>
        Message Sent
      </h2>
      <p className="alert" role="note">
        Keep the details below somewhere safe. They are shown only once, and you need them to read the answer to your
        message.
      </p>
      <ol className="enquiry-steps">
        <li>
          Go to the <a href="/report/login">login page</a>.
        </li>
        <li>
          Log in with the report ID <strong className="enquiry-steps__value">{result.reportID}</strong>
        </li>
        {result.pin && (
          <li>
            and the password <strong className="enquiry-steps__value">{result.pin}</strong>
          </li>
        )}
      </ol>
      <div className="actions modal__actions">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
