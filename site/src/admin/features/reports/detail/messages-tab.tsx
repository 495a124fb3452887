import { useState, type FormEvent } from 'react';
import { RedactedText } from '../../../../forms/redacted-text';
import { formatDateTime, formatUtcDay } from '../../../../lib/format';
import { isTerminalStatus } from '../../../ui/badges';
import { ErrorBanner } from '../../../ui/error-banner';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { can, isOrganisationManager, type Viewer } from '../../../viewer';
import { useReporterTranslation } from './reporter-translation-api';
import { imageProblem, UPLOAD_FAILED, type ChatMessage } from './chat-api';
import { AttachImageButton, ImagePreview, useImageChoice } from './chat-image';
import type { ReportDetail } from './detail-api';
import type { ReportRules } from './report-rules';
import { mayRedact } from './redaction-api';
import { RedactButton } from './redact-slot';
import { SavedReplyMenu, withSavedReply } from './saved-reply-menu';
import { LanguageChoiceSlot, MessageTranslateSlot } from './translation-slot';
import { useChat } from './use-chat';
import { usePresence, type Presence } from './use-presence';

type MessagesTabProps = { viewer: Viewer; report: ReportDetail; rules: ReportRules };

export function MessagesTab({ viewer, report, rules }: MessagesTabProps) {
  const chat = useChat(report.id, rules.assigned);
  const presence = usePresence(report.id, rules.canReply);
  const [draft, setDraft] = useState('');
  const [sendError, setSendError] = useState<string>();
  /** The server's reason under 'Upload Failed', when it gave one. */
  const [uploadReason, setUploadReason] = useState<string>();
  const [busy, setBusy] = useState(false);
  const image = useImageChoice();
  const [confirming, setConfirming] = useState(false);
  // Staff's Translate action (decision 046): one language for the whole chat, each message on request.
  const translateFrom = useReporterTranslation(report.id);
  const [translateLang, setTranslateLang] = useState('');
  const confirmBeforeSending = isOrganisationManager(viewer);
  const redacts = mayRedact(viewer, report);
  // The receipt goes under the team's latest message the reporter has seen.
  const seenID = chat.messages.findLast((message) => message.from === 'User' && message.type !== 'System' && message.read)?.id;

  const showError = (message: string | undefined, reason?: string) => {
    setSendError(message);
    setUploadReason(reason);
  };

  const chooseImage = (file: File) => {
    const problem = imageProblem(file);
    if (problem) return showError(problem);
    showError(undefined);
    image.choose(file);
  };

  // With an image chosen, Send sends it and the text becomes its optional caption; without one, text is required.
  const deliver = async () => {
    const text = draft.trim();
    setBusy(true);
    showError(undefined);
    if (image.file) {
      const problem = await chat.sendImage(image.file, text);
      setBusy(false);
      if (problem) return showError(UPLOAD_FAILED, problem === UPLOAD_FAILED ? undefined : problem);
      image.clear();
      setDraft('');
      presence.sent();
      return;
    }
    const problem = await chat.send(text);
    setBusy(false);
    if (problem) return showError(problem);
    setDraft('');
    presence.sent();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!image.file && draft.trim() === '') return showError('Required');
    // Spec §4: owners and admins confirm before a message goes to the reporter (decision 011).
    if (confirmBeforeSending) setConfirming(true);
    else void deliver();
  };

  return (
    <section className="card stack" aria-labelledby="messages-title">
      <h2 id="messages-title" className="card__title">
        Messages
      </h2>
      <ReporterPresence presence={presence.reporter} />
      {translateFrom && <LanguageChoiceSlot id="messages-translate-language" formLanguage={translateFrom} value={translateLang} onChange={setTranslateLang} />}
      <ErrorBanner message={chat.error} />
      {chat.hasMore && (
        <button type="button" className="link-button chat__earlier" onClick={chat.loadEarlier} disabled={chat.loading}>
          Load earlier messages
        </button>
      )}
      {chat.messages.length === 0 && !chat.loading && !chat.error && <p className="muted">No messages found</p>}
      <ol className="chat" aria-live="polite">
        {chat.messages.map((message) => (
          <MessageItem
            key={message.id}
            message={message}
            mine={message.fromUser?.id === viewer.id}
            seen={message.id === seenID}
            translateLang={translateFrom ? translateLang : null}
            redact={redacts && message.type !== 'System' && message.message !== '' ? chat.redact : undefined}
          />
        ))}
      </ol>
      {rules.canReply ? (
        <form className="chat-reply stack" noValidate autoComplete="off" onSubmit={submit}>
          <ErrorBanner message={sendError} />
          {uploadReason && <p className="muted">{uploadReason}</p>}
          {isTerminalStatus(report.status) && <p className="muted">This report is closed; sending a message re-opens it.</p>}
          <label className="visually-hidden" htmlFor="chat-reply">
            Reply
          </label>
          <textarea
            id="chat-reply"
            className="field__input chat-reply__input"
            rows={3}
            value={draft}
            placeholder={image.file ? 'Add a caption (optional)' : 'Write a message to the reporter'}
            onChange={(event) => {
              setDraft(event.target.value);
              presence.typing();
            }}
          />
          {image.file && <ImagePreview file={image.file} url={image.previewURL} disabled={busy} onRemove={image.clear} />}
          <div className="actions chat-reply__actions">
            {can(viewer, 'SavedReplyList') && (
              <SavedReplyMenu
                organisationID={report.submissionForm.organisationID}
                disabled={busy}
                onInsert={(body) => {
                  setDraft((current) => withSavedReply(current, body));
                  document.getElementById('chat-reply')?.focus();
                }}
              />
            )}
            <AttachImageButton disabled={busy} onChoose={chooseImage} />
            <button type="submit" className="button" disabled={busy}>
              {busy ? 'Sending…' : 'Send'}
            </button>
          </div>
        </form>
      ) : (
        <p className="muted">Only members of the report team can reply.</p>
      )}
      {confirming && (
        <ConfirmDialog
          action="send"
          name="message"
          onConfirm={async () => {
            await deliver();
            return undefined;
          }}
          onClose={() => setConfirming(false)}
        />
      )}
    </section>
  );
}

function ReporterPresence({ presence }: { presence: Presence | undefined }) {
  if (!presence) return null;
  // Only the day a reporter was last here is kept (decision 064).
  const seen = presence.lastSeenAt ? formatUtcDay(presence.lastSeenAt) : undefined;
  const text =
    presence.otherUserStatus === 'Typing'
      ? 'The reporter is typing…'
      : presence.otherUserStatus === 'Online'
        ? 'The reporter is online'
        : seen
          ? `The reporter is offline · last seen ${seen}`
          : 'The reporter is offline';
  return (
    <p className={`presence presence--${presence.otherUserStatus.toLowerCase()}`} role="status">
      {text}
    </p>
  );
}

function senderName(message: ChatMessage, mine: boolean): string {
  if (mine) return 'You';
  if (message.from === 'Guest') return 'Reporter';
  // A staff message without its author: the account has been deleted (decision 034).
  if (message.type !== 'System' && !message.fromUser) return 'Deleted user';
  return message.fromUser ? `${message.fromUser.firstName} ${message.fromUser.lastName}`.trim() : 'Organisation';
}

/** Images are shown only from our own origin. */
const sameOrigin = (url: string) => url.startsWith('/') && !url.startsWith('//');

type MessageItemProps = {
  message: ChatMessage;
  mine: boolean;
  seen: boolean;
  /** The language chosen for the Translate action, or null when it is not offered. */
  translateLang: string | null;
  /** Redacts a span of this message (decision 053), for those who may. */
  redact?: ((messageID: string, start: number, end: number) => Promise<string | undefined>) | undefined;
};

function MessageItem({ message, mine, seen, translateLang, redact }: MessageItemProps) {
  const side = message.type === 'System' ? 'system' : message.from === 'User' ? 'team' : 'reporter';
  return (
    <li className={`chat__message chat__message--${side}${mine ? ' chat__message--mine' : ''}`}>
      <p className="chat__meta">
        {side === 'system' ? 'Automatic message · ' : `${senderName(message, mine)} · `}
        {formatDateTime(message.createdAt) ?? ''}
      </p>
      {message.message && (
        <p className="chat__text">
          <RedactedText text={message.message} />
        </p>
      )}
      {translateLang !== null && message.type !== 'System' && message.message.trim() !== '' && <MessageTranslateSlot messageID={message.id} lang={translateLang} />}
      {message.image && sameOrigin(message.image.fileURL) && <img className="chat__image" src={message.image.fileURL} alt="Image sent in the conversation" />}
      {redact && <RedactButton label={`message of ${formatDateTime(message.createdAt) ?? ''}`} title="Redact part of this message" texts={[message.message]} onRedact={(_index, start, end) => redact(message.id, start, end)} />}
      {seen && <p className="chat__meta">Seen</p>}
    </li>
  );
}
