import { useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { formatDateTime } from '../../lib/format';
import { liveState, onLiveState, type LiveState } from '../../lib/live';
import { RedactedText } from '../../forms/redacted-text';
import { sameOriginImageUrl } from '../organisation-display';
import { IMAGE_TYPES, imageProblem, type ChatMessage } from './conversation';
import { useConversation } from './use-conversation';
import { useReporterPresence } from './use-reporter-presence';

type MessagesTabProps = {
  conversationClosed: boolean;
  allowChatFileUploads: boolean;
};

const CLOSED_PLACEHOLDER = 'This conversation is closed';

const idleOnServer = (): LiveState => 'idle';

export function MessagesTab({ conversationClosed, allowChatFileUploads }: MessagesTabProps) {
  const conversation = useConversation();
  const presence = useReporterPresence(!conversationClosed);
  const live = useSyncExternalStore(onLiveState, liveState, idleOnServer);
  // The read receipt goes under the reporter's latest message the organisation has seen.
  const seenID = conversation.messages.findLast((message) => message.from === 'Guest' && message.type !== 'System' && message.read)?.id;
  const [draft, setDraft] = useState('');
  const [sendError, setSendError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const imageRef = useRef<HTMLInputElement>(null);

  const send = async (content: string | File) => {
    setBusy(true);
    setSendError(undefined);
    const problem = await conversation.send(content);
    setBusy(false);
    if (problem) setSendError(problem);
    else if (typeof content === 'string') {
      setDraft('');
      presence.sent();
    }
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || conversationClosed) return;
    if (draft.trim() === '') return setSendError('Required');
    void send(draft.trim());
  };

  const chooseImage = (file: File | undefined) => {
    if (!file) return;
    const problem = imageProblem(file);
    if (problem) setSendError(problem);
    else void send(file);
  };

  return (
    <section className="stack" aria-labelledby="messages-title">
      <h2 id="messages-title">Messages</h2>
      {live === 'reconnecting' && (
        <p className="muted" role="status">
          Reconnecting…
        </p>
      )}
      {conversation.error && (
        <p className="alert alert--error" role="alert">
          {conversation.error}
        </p>
      )}
      {conversation.hasMore && (
        <button type="button" className="link-button" onClick={conversation.loadEarlier} disabled={conversation.loading}>
          Load earlier messages
        </button>
      )}
      {conversation.messages.length === 0 && !conversation.loading && !conversation.error && <p className="muted">No messages found</p>}
      <ol className="chat" aria-live="polite">
        {conversation.messages.map((message) => (
          <MessageItem key={message.id} message={message} seen={message.id === seenID} />
        ))}
      </ol>
      {presence.teamStatus === 'Typing' && (
        <p className="muted" role="status">
          The organisation is typing…
        </p>
      )}
      <form className="chat-reply stack" noValidate autoComplete="off" onSubmit={submit}>
        {sendError && (
          <p className="alert alert--error" role="alert">
            {sendError}
          </p>
        )}
        <label className="visually-hidden" htmlFor="chat-reply">
          Reply
        </label>
        <textarea
          id="chat-reply"
          className="field__input chat-reply__input"
          rows={3}
          value={draft}
          placeholder={conversationClosed ? CLOSED_PLACEHOLDER : 'Write a message'}
          disabled={conversationClosed}
          autoComplete="off"
          onChange={(event) => {
            setDraft(event.target.value);
            presence.typing();
          }}
        />
        <div className="actions">
          {allowChatFileUploads && !conversationClosed && (
            <>
              <input
                ref={imageRef}
                type="file"
                hidden
                accept={IMAGE_TYPES.join(',')}
                onChange={(event) => {
                  chooseImage(event.target.files?.[0]);
                  event.target.value = '';
                }}
              />
              <button type="button" className="button button--secondary" disabled={busy} onClick={() => imageRef.current?.click()}>
                Send image
              </button>
            </>
          )}
          <button type="submit" className="button" disabled={busy || conversationClosed}>
            Send
          </button>
        </div>
      </form>
    </section>
  );
}

function MessageItem({ message, seen }: { message: ChatMessage; seen: boolean }) {
  const imageUrl = message.image ? sameOriginImageUrl(message.image.fileURL, window.location.origin) : undefined;
  const sender = message.type === 'System' ? 'system' : message.from === 'Guest' ? 'mine' : 'theirs';
  return (
    <li className={`chat__message chat__message--${sender}`}>
      <p className="chat__meta">
        {sender === 'mine' ? 'You' : sender === 'theirs' ? 'Organisation' : ''}
        {sender !== 'system' && ' · '}
        {formatDateTime(message.createdAt) ?? ''}
      </p>
      {message.message && (
        <p className="chat__text">
          <RedactedText text={message.message} />
        </p>
      )}
      {imageUrl && <img className="chat__image" src={imageUrl} alt="Image sent in the conversation" />}
      {seen && <p className="chat__meta">Seen</p>}
    </li>
  );
}
