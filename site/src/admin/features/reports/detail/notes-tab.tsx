import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorMessage } from '../../../ui/errors';
import { NoteForm } from '../../../ui/note-form';
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
  const [, create] = useMutation(NOTE_CREATE_MUTATION);
  const post = async (note: string) => {
    const result = await create({ id: reportID, note }, NOTES_CONTEXT);
    if (result.error) return errorMessage(result.error);
    notify('New Note successfully posted');
    onPosted();
    return undefined;
  };
  return <NoteForm id="new-note" onPost={post} />;
}
