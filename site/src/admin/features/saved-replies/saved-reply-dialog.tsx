import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { TextField } from '../../../lib/text-field';
import { Dialog } from '../../ui/dialog';
import { DialogFormActions } from '../../ui/dialog-form';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { BODY_MAX, CREATE_MUTATION, UPDATE_MUTATION, type SavedReplyRow } from './saved-replies-api';

type SavedReplyDialogProps = {
  /** The reply to edit; without one, a new reply. */
  reply?: SavedReplyRow | undefined;
  /** The organisation a super admin is working inside; others create in their own. */
  organisationID?: string | undefined;
  onSaved: (title: string) => void;
  onClose: () => void;
};

/** Create and Edit Saved Reply: a title and the text staff insert into a chat; the server's refusals show at the top. */
export function SavedReplyDialog({ reply, organisationID, onSaved, onClose }: SavedReplyDialogProps) {
  const [title, setTitle] = useState(reply?.title ?? '');
  const [body, setBody] = useState(reply?.body ?? '');
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<string>();
  const [creating, create] = useMutation<{ savedReplyCreate: SavedReplyRow }>(CREATE_MUTATION);
  const [updating, update] = useMutation<{ savedReplyUpdate: SavedReplyRow }>(UPDATE_MUTATION);
  const busy = creating.fetching || updating.fetching;
  const titleMissing = tried && title.trim() === '';
  const bodyMissing = tried && body.trim() === '';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setTried(true);
    setError(undefined);
    if (title.trim() === '' || body.trim() === '') return;
    const input = { title: title.trim(), body: body.trim() };
    const result = reply ? await update({ id: reply.id, input }) : await create({ organisationID: organisationID ?? null, input });
    const saved = result.data && ('savedReplyUpdate' in result.data ? result.data.savedReplyUpdate : result.data.savedReplyCreate);
    if (!saved) {
      setError(errorMessage(result.error));
      return;
    }
    onSaved(saved.title);
    onClose();
  };

  return (
    <Dialog title={reply ? 'Edit Saved Reply' : 'Create Saved Reply'} onClose={onClose}>
      <form className="stack" noValidate onSubmit={(event) => void submit(event)}>
        <ErrorBanner message={error} />
        <TextField id="saved-reply-title" label="Title" value={title} onChange={setTitle} error={titleMissing ? 'Required' : undefined} />
        <div className="field">
          <label className="field__label" htmlFor="saved-reply-body">
            Reply
          </label>
          <textarea
            id="saved-reply-body"
            className="field__input"
            rows={6}
            maxLength={BODY_MAX}
            value={body}
            aria-invalid={bodyMissing ? true : undefined}
            aria-describedby={bodyMissing ? 'saved-reply-body-error' : undefined}
            onChange={(event) => setBody(event.target.value)}
          />
          {bodyMissing && (
            <p className="field__error" id="saved-reply-body-error">
              Required
            </p>
          )}
        </div>
        <DialogFormActions busy={busy} submitLabel="Save" busyLabel="Saving…" onCancel={onClose} />
      </form>
    </Dialog>
  );
}
