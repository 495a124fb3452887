import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorMessage } from '../../../ui/errors';
import { notify } from '../../../ui/notice-store';
import { Pagination } from '../../../ui/pagination';
import { NOTE_CREATE_MUTATION, NOTES_QUERY, type ReportDetail, type ReportNote } from './detail-api';
import { NoteItem } from './note-item';
import type { ReportRules } from './report-rules';

const NOTES_PAGE_SIZE = 20;
// A note posted, edited or removed, or a status change (which writes a note), refreshes the list.
const NOTES_CONTEXT = { additionalTypenames: ['ReportNote', 'ReportSubmission'] };

export function NotesTab({ report, rules }: { report: ReportDetail; rules: ReportRules }) {
  const [page, setPage] = useState(1);
  const [result] = useQuery<{ reportSubmissionNotes: { total: number; list: ReportNote[] } }>({
    query: NOTES_QUERY,
    variables: { id: report.id, limit: NOTES_PAGE_SIZE, offset: (page - 1) * NOTES_PAGE_SIZE },
    context: NOTES_CONTEXT,
  });
  const notes = result.data?.reportSubmissionNotes;

  return (
    <section className="card stack" aria-labelledby="notes-title">
      <h2 id="notes-title" className="card__title">
        Notes
      </h2>
      {rules.canWriteNotes && <NewNoteForm reportID={report.id} onPosted={() => setPage(1)} />}
      <ErrorBanner message={errorMessage(result.error)} />
      {notes === undefined && !result.error && <p className="muted">Loading…</p>}
      {notes?.list.length === 0 && <p className="muted">No notes posted</p>}
      {notes && notes.list.length > 0 && (
        <ol className="note-list">
          {notes.list.map((note) => (
            <NoteItem key={note.id} note={note} />
          ))}
        </ol>
      )}
      {notes && <Pagination page={page} pageSize={NOTES_PAGE_SIZE} total={notes.total} onPage={setPage} label="Note pages" />}
    </section>
  );
}

function NewNoteForm({ reportID, onPosted }: { reportID: string; onPosted: () => void }) {
  const [text, setText] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [error, setError] = useState<string>();
  const [state, create] = useMutation(NOTE_CREATE_MUTATION);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (state.fetching) return;
    const note = text.trim();
    setFieldError(note === '' ? 'Required' : undefined);
    setError(undefined);
    if (note === '') return;
    const result = await create({ id: reportID, note }, NOTES_CONTEXT);
    if (result.error) return setError(errorMessage(result.error));
    setText('');
    notify('New Note successfully posted');
    onPosted();
  };

  return (
    <form className="stack note-form" noValidate onSubmit={submit}>
      <ErrorBanner message={error} />
      <div className="field">
        <label className="field__label" htmlFor="new-note">
          New Note
        </label>
        <textarea
          id="new-note"
          className="field__input"
          rows={3}
          value={text}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? 'new-note-error' : undefined}
          onChange={(event) => setText(event.target.value)}
        />
        {fieldError && (
          <p className="field__error" id="new-note-error">
            {fieldError}
          </p>
        )}
      </div>
      <div className="actions">
        <button type="submit" className="button" disabled={state.fetching}>
          {state.fetching ? 'Posting…' : 'Post Note'}
        </button>
      </div>
    </form>
  );
}
