import { useState } from 'react';
import { useMutation } from 'urql';
import { spaced } from '../../../ui/badges';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { errorMessage } from '../../../ui/errors';
import { NoteEditor, NoteMeta, noteUpdateError } from '../../../ui/note-form';
import { notify } from '../../../ui/notice-store';
import { NOTE_ARCHIVE_MUTATION, NOTE_UPDATE_MUTATION, type ReportNote } from './detail-api';

/** One note. Status-change notes read 'Report Marked as …' and cannot be edited (spec section 6). */
export function NoteItem({ note }: { note: ReportNote }) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [, update] = useMutation(NOTE_UPDATE_MUTATION);
  const [, archive] = useMutation(NOTE_ARCHIVE_MUTATION);
  const statusLine = note.newStatus ? `Report Marked as ${spaced(note.newStatus)}` : undefined;
  // A status note without a note of its own holds the status line as its text; show it once.
  const body = statusLine && note.note.trim() === statusLine ? '' : note.note;

  const save = async (text: string) => {
    const result = await update({ id: note.id, note: text });
    if (result.error) return noteUpdateError(result.error);
    notify('Note successfully updated');
    return undefined;
  };

  const remove = async (): Promise<string | undefined> => {
    const result = await archive({ id: note.id });
    if (result.error) return errorMessage(result.error);
    notify('Successfully deleted note');
    return undefined;
  };

  return (
    <li className={`note${statusLine ? ' note--status' : ''}`}>
      <NoteMeta author={note.author} createdAt={note.createdAt} className="note__meta" />
      {statusLine && <p className="note__status">{statusLine}</p>}
      {editing ? (
        <NoteEditor id={`note-edit-${note.id}`} initial={note.note} className="note__editor" onSave={save} onDone={() => setEditing(false)} />
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
