import { useState } from 'react';
import { useMutation } from 'urql';
import { formatDateTime } from '../../../../lib/format';
import { spaced } from '../../../ui/badges';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorMessage } from '../../../ui/errors';
import { notify } from '../../../ui/notice-store';
import { roleLabelOf } from '../../../viewer';
import { NOTE_ARCHIVE_MUTATION, NOTE_UPDATE_MUTATION, type ReportNote } from './detail-api';

export const NOTE_UPDATE_FAILED = 'An error occurred while updating the note, please try again';


/** One note. Status-change notes read 'Report Marked as …' and cannot be edited (spec section 6). */
export function NoteItem({ note }: { note: ReportNote }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(note.note);
  const [error, setError] = useState<string>();
  const [deleting, setDeleting] = useState(false);
  const [updateState, update] = useMutation(NOTE_UPDATE_MUTATION);
  const [, archive] = useMutation(NOTE_ARCHIVE_MUTATION);
  const statusLine = note.newStatus ? `Report Marked as ${spaced(note.newStatus)}` : undefined;
  // A status note without a note of its own holds the status line as its text; show it once.
  const body = statusLine && note.note.trim() === statusLine ? '' : note.note;
  const author = note.author ? `${note.author.firstName} ${note.author.lastName}`.trim() : 'Former user';

  const save = async () => {
    if (text.trim() === '') return setError('Required');
    setError(undefined);
    const result = await update({ id: note.id, note: text.trim() });
    if (result.error) return setError(result.error.graphQLErrors.length ? errorMessage(result.error) : NOTE_UPDATE_FAILED);
    setEditing(false);
    notify('Note successfully updated');
  };

  const remove = async (): Promise<string | undefined> => {
    const result = await archive({ id: note.id });
    if (result.error) return errorMessage(result.error);
    notify('Successfully deleted note');
    return undefined;
  };

  return (
    <li className={`note${statusLine ? ' note--status' : ''}`}>
      <p className="note__meta">
        <strong>{author}</strong>
        {note.author && <span className="muted">{` · ${roleLabelOf(note.author.role)}`}</span>}
        <span className="muted">{` · ${formatDateTime(note.createdAt) ?? ''}`}</span>
      </p>
      {statusLine && <p className="note__status">{statusLine}</p>}
      {editing ? (
        <div className="stack">
          <ErrorBanner message={error} />
          <label className="visually-hidden" htmlFor={`note-edit-${note.id}`}>
            Edit note
          </label>
          <textarea id={`note-edit-${note.id}`} className="field__input note__editor" rows={3} value={text} onChange={(event) => setText(event.target.value)} />
          <div className="actions">
            <button type="button" className="button button--small" onClick={() => void save()} disabled={updateState.fetching}>
              {updateState.fetching ? 'Saving…' : 'Save'}
            </button>
            <button
              type="button"
              className="button button--small button--secondary"
              onClick={() => {
                setEditing(false);
                setText(note.note);
                setError(undefined);
              }}
            >
              Cancel
            </button>
          </div>
        </div>
      ) : (
        body && <p className="note__text">{body}</p>
      )}
      {!editing && (note.editable || note.deletable) && (
        <div className="actions note__actions">
          {note.editable && !note.newStatus && (
            <button type="button" className="link-button" onClick={() => setEditing(true)}>
              Edit
            </button>
          )}
          {note.deletable && (
            <button type="button" className="link-button" onClick={() => setDeleting(true)}>
              Delete
            </button>
          )}
        </div>
      )}
      {deleting && <ConfirmDialog action="delete" name="note" onConfirm={remove} onClose={() => setDeleting(false)} />}
    </li>
  );
}
