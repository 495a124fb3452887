import { useState, type FormEvent } from 'react';
import { formatDateTime } from '../../../../lib/format';
import { isTerminalStatus } from '../../../ui/badges';
import { ErrorBanner } from '../../../ui/error-banner';
import type { Viewer } from '../../../viewer';
import type { ChatMessage } from './chat-api';
import type { ReportDetail } from './detail-api';
import type { ReportRules } from './report-rules';
import { useChat } from './use-chat';
import { usePresence, type Presence } from './use-presence';

type MessagesTabProps = { viewer: Viewer; report: ReportDetail; rules: ReportRules };

export function MessagesTab({ viewer, report, rules }: MessagesTabProps) {
  const chat = useChat(report.id, rules.assigned);
  const presence = usePresence(report.id, rules.canReply);
  const [draft, setDraft] = useState('');
  const [sendError, setSendError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // The receipt goes under the team's latest message the reporter has seen.
  const seenID = chat.messages.findLast((message) => message.from === 'User' && message.type !== 'System' && message.read)?.id;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const text = draft.trim();
    if (text === '') return setSendError('Required');
    setBusy(true);
    setSendError(undefined);
    const problem = await chat.send(text);
    setBusy(false);
    if (problem) setSendError(problem);
    else setDraft('');
  };

  return (
    <section className="card stack" aria-labelledby="messages-title">
      <h2 id="messages-title" className="card__title">
        Messages
      </h2>
      <ReporterPresence presence={presence.reporter} />
      <ErrorBanner message={chat.error} />
      {chat.hasMore && (
        <button type="button" className="link-button chat__earlier" onClick={chat.loadEarlier} disabled={chat.loading}>
          Load earlier messages
        </button>
      )}
      {chat.messages.length === 0 && !chat.loading && !chat.error && <p className="muted">No messages found</p>}
      <ol className="chat" aria-live="polite">
        {chat.messages.map((message) => (
          <MessageItem key={message.id} message={message} mine={message.fromUser?.id === viewer.id} seen={message.id === seenID} />
        ))}
      </ol>
      {rules.canReply ? (
        <form className="chat-reply stack" noValidate autoComplete="off" onSubmit={submit}>
          <ErrorBanner message={sendError} />
          {isTerminalStatus(report.status) && <p className="muted">This report is closed; sending a message re-opens it.</p>}
          <label className="visually-hidden" htmlFor="chat-reply">
            Reply
          </label>
          <textarea
            id="chat-reply"
            className="field__input chat-reply__input"
            rows={3}
            value={draft}
            placeholder="Write a message to the reporter"
            onChange={(event) => {
              setDraft(event.target.value);
              presence.typing();
            }}
          />
          <div className="actions chat-reply__actions">
            <button type="submit" className="button" disabled={busy}>
              {busy ? 'Sending…' : 'Send'}
            </button>
          </div>
        </form>
      ) : (
        <p className="muted">Only members of the report team can reply.</p>
      )}
    </section>
  );
}

function ReporterPresence({ presence }: { presence: Presence | undefined }) {
  if (!presence) return null;
  const seen = presence.lastSeenAt ? formatDateTime(presence.lastSeenAt) : undefined;
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
  return message.fromUser ? `${message.fromUser.firstName} ${message.fromUser.lastName}`.trim() : 'Organisation';
}

/** Images are shown only from our own origin. */
const sameOrigin = (url: string) => url.startsWith('/') && !url.startsWith('//');

function MessageItem({ message, mine, seen }: { message: ChatMessage; mine: boolean; seen: boolean }) {
  const side = message.type === 'System' ? 'system' : message.from === 'User' ? 'team' : 'reporter';
  return (
    <li className={`chat__message chat__message--${side}${mine ? ' chat__message--mine' : ''}`}>
      <p className="chat__meta">
        {side !== 'system' && `${senderName(message, mine)} · `}
        {formatDateTime(message.createdAt) ?? ''}
      </p>
      {message.message && <p className="chat__text">{message.message}</p>}
      {message.image && sameOrigin(message.image.fileURL) && <img className="chat__image" src={message.image.fileURL} alt="Image sent in the conversation" />}
      {seen && <p className="chat__meta">Seen</p>}
    </li>
  );
}
