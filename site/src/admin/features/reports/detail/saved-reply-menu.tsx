import { useMemo, useState } from 'react';
import { useQuery } from 'urql';

// The composer's own document (features do not share code): only what inserting needs.
const SAVED_REPLIES_QUERY = `query ChatSavedReplies($organisationID: ID) { savedReplies(organisationID: $organisationID) { id title body } }`;
type SavedRepliesData = { savedReplies: { id: string; title: string; body: string }[] };

type SavedReplyMenuProps = {
  /** The report's organisation: a super admin's replies are that organisation's. */
  organisationID: string;
  disabled: boolean;
  /** Hands the chosen reply's text to the composer, which keeps it editable before sending. */
  onInsert: (body: string) => void;
};

/**
 * 'Insert saved reply' in the chat composer (decision 051): a native select, so keyboards and screen
 * readers use it as they use any list. Choosing a reply inserts it and the select returns to its prompt.
 * Nothing shows while the organisation has no saved replies.
 */
export function SavedReplyMenu({ organisationID, disabled, onInsert }: SavedReplyMenuProps) {
  const variables = useMemo(() => ({ organisationID }), [organisationID]);
  const [result] = useQuery<SavedRepliesData>({ query: SAVED_REPLIES_QUERY, variables });
  const [choice, setChoice] = useState('');
  const replies = result.data?.savedReplies ?? [];
  if (replies.length === 0) return null;
  return (
    <div className="chat-reply__saved">
      <label className="visually-hidden" htmlFor="chat-saved-reply">
        Insert saved reply
      </label>
      <select
        id="chat-saved-reply"
        className="field__input"
        value={choice}
        disabled={disabled}
        onChange={(event) => {
          const reply = replies.find((candidate) => candidate.id === event.target.value);
          if (reply) onInsert(reply.body);
          setChoice('');
        }}
      >
        <option value="">Insert saved reply…</option>
        {replies.map((reply) => (
          <option key={reply.id} value={reply.id}>
            {reply.title}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The composer's text with a reply added: alone in an empty box, else after what was typed, a blank line between. */
export function withSavedReply(draft: string, body: string): string {
  return draft.trim() === '' ? body : `${draft.replace(/\s+$/, '')}\n\n${body}`;
}
