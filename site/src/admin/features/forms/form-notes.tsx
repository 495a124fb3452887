import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { NoteForm } from '../../ui/note-form';
import { notify } from '../../ui/notice-store';
import { Pagination } from '../../ui/pagination';
import { FormNoteItem } from './form-note-item';
import { NOTE_CREATE_MUTATION, NOTES_CONTEXT, NOTES_QUERY, type FormNote } from './forms-api';

const NOTES_PAGE_SIZE = 10;

/** The team's internal notes on a form, newest first (spec §2 Report forms). */
export function FormNotes({ reportFormID }: { reportFormID: string }) {
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [result] = useQuery<{ reportFormNotes: { total: number; list: FormNote[] } }>({
    query: NOTES_QUERY,
    variables: { reportFormID, limit: NOTES_PAGE_SIZE, offset: (page - 1) * NOTES_PAGE_SIZE },
    context: NOTES_CONTEXT,
  });
  const notes = result.data?.reportFormNotes;

  return (
    <section className="card stack" aria-labelledby="form-notes-title">
      <div className="form-page__header">
        <h2 id="form-notes-title" className="card__title">
          Internal Notes
        </h2>
        {!creating && (
          <button type="button" className="button button--small" onClick={() => setCreating(true)}>
            + Create Note
          </button>
        )}
      </div>
      {creating && (
        <NewNoteForm
          reportFormID={reportFormID}
          onDone={(posted) => {
            setCreating(false);
            if (posted) setPage(1);
          }}
        />
      )}
      <ErrorBanner message={errorMessage(result.error)} />
      {notes === undefined && !result.error && <p className="muted">Loading…</p>}
      {notes?.list.length === 0 && <p className="muted">No notes posted</p>}
      {notes && notes.list.length > 0 && (
        <ol className="form-notes__list">
          {notes.list.map((note) => (
            <FormNoteItem key={note.id} note={note} />
          ))}
        </ol>
      )}
      {notes && <Pagination page={page} pageSize={NOTES_PAGE_SIZE} total={notes.total} onPage={setPage} label="Note pages" />}
    </section>
  );
}

function NewNoteForm({ reportFormID, onDone }: { reportFormID: string; onDone: (posted: boolean) => void }) {
  const [, create] = useMutation(NOTE_CREATE_MUTATION);
  const post = async (note: string) => {
    const result = await create({ reportFormID, note }, NOTES_CONTEXT);
    if (result.error) return errorMessage(result.error);
    notify('New Note successfully posted');
    onDone(true);
    return undefined;
  };
  return <NoteForm id="new-form-note" onPost={post} onCancel={() => onDone(false)} autoFocus />;
}
