import { useState } from 'react';
import { useMutation } from 'urql';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { errorMessage } from '../../ui/errors';
import { NoteEditor, NoteMeta, noteUpdateError } from '../../ui/note-form';
import { notify } from '../../ui/notice-store';
import { NOTE_ARCHIVE_MUTATION, NOTE_UPDATE_MUTATION, NOTES_CONTEXT, type FormNote } from './forms-api';

/** One internal note; its author may edit it or delete it (an archive). */
export function FormNoteItem({ note }: { note: FormNote }) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [, update] = useMutation(NOTE_UPDATE_MUTATION);
  const [, archive] = useMutation(NOTE_ARCHIVE_MUTATION);

  const save = async (text: string) => {
    const result = await update({ id: note.id, note: text }, NOTES_CONTEXT);
    if (result.error) return noteUpdateError(result.error);
    notify('Note successfully updated');
    return undefined;
  };

  const remove = async (): Promise<string | undefined> => {
    const result = await archive({ id: note.id }, NOTES_CONTEXT);
    if (result.error) return errorMessage(result.error);
    notify('Successfully deleted note');
    return undefined;
  };

  return (
    <li className="form-note">
      <NoteMeta author={note.author} createdAt={note.createdAt} className="form-note__meta" />
      {editing ? (
        <NoteEditor id={`form-note-edit-${note.id}`} initial={note.note} className="form-note__editor" onSave={save} onDone={() => setEditing(false)} />
      ) : (
        <p className="form-note__text">{note.note}</p>
      )}
      {!editing && note.canEdit && (
        <div className="actions">
          <button type="button" className="link-button" onClick={() => setEditing(true)}>
            Edit
          </button>
          <button type="button" className="link-button" onClick={() => setDeleting(true)}>
            Delete
          </button>
        </div>
      )}
      {deleting && <ConfirmDialog action="delete" name="note" onConfirm={remove} onClose={() => setDeleting(false)} />}
    </li>
  );
}
