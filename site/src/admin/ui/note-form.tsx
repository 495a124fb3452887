import { useState, type FormEvent } from 'react';
import type { CombinedError } from 'urql';
import { formatDateTime } from '../../lib/format';
import { roleLabelOf } from '../viewer';
import { ErrorBanner } from './error-banner';
import { errorMessage } from './errors';

// The note box and note editor that report notes and report form notes share (spec §2, §8).

export const NOTE_UPDATE_FAILED = 'An error occurred while updating the note, please try again';

/** The server's own words when it gave any (a note too long); the spec's message for a failed request. */
export function noteUpdateError(error: CombinedError): string {
  return error.graphQLErrors.length ? (errorMessage(error) ?? NOTE_UPDATE_FAILED) : NOTE_UPDATE_FAILED;
}

/** Runs with the trimmed note; answers an error message to show, or undefined when it worked. */
type Submit = (note: string) => Promise<string | undefined>;

type NoteFormProps = { id: string; onPost: Submit; onCancel?: () => void; autoFocus?: boolean };

/** 'New Note' with Post Note; an empty note is 'Required', and a posted one clears the box. */
export function NoteForm({ id, onPost, onCancel, autoFocus = false }: NoteFormProps) {
  const [text, setText] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const errorID = `${id}-error`;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const note = text.trim();
    setFieldError(note === '' ? 'Required' : undefined);
    setError(undefined);
    if (note === '') return;
    setBusy(true);
    const problem = await onPost(note);
    setBusy(false);
    if (problem) return setError(problem);
    setText('');
  };

  return (
    <form className="stack note-form" noValidate onSubmit={submit}>
      <ErrorBanner message={error} />
      <div className="field">
        <label className="field__label" htmlFor={id}>
          New Note
        </label>
        <textarea
          id={id}
          className="field__input"
          rows={3}
          value={text}
          autoFocus={autoFocus}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? errorID : undefined}
          onChange={(event) => setText(event.target.value)}
        />
        {fieldError && (
          <p className="field__error" id={errorID}>
            {fieldError}
          </p>
        )}
      </div>
      <div className="actions">
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Posting…' : 'Post Note'}
        </button>
        {onCancel && (
          <button type="button" className="button button--secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

type NoteEditorProps = { id: string; initial: string; className: string; onSave: Submit; onDone: () => void };

/** An existing note being edited: Save keeps it (never empty), Cancel drops the changes. */
export function NoteEditor({ id, initial, className, onSave, onDone }: NoteEditorProps) {
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const save = async () => {
    if (text.trim() === '') return setError('Required');
    setError(undefined);
    setBusy(true);
    const problem = await onSave(text.trim());
    setBusy(false);
    if (problem) return setError(problem);
    onDone();
  };

  return (
    <div className="stack">
      <ErrorBanner message={error} />
      <label className="visually-hidden" htmlFor={id}>
        Edit note
      </label>
      <textarea id={id} className={`field__input ${className}`} rows={3} value={text} onChange={(event) => setText(event.target.value)} />
      <div className="actions">
        <button type="button" className="button button--small" onClick={() => void save()} disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button button--small button--secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </div>
  );
}

type NoteAuthor = { firstName: string; lastName: string; role: string } | null;

/** Who wrote a note, in which role, and when; a deleted account reads 'Deleted user' (decision 034). */
export function NoteMeta({ author, createdAt, className }: { author: NoteAuthor; createdAt: string; className: string }) {
  const name = author ? `${author.firstName} ${author.lastName}`.trim() : 'Deleted user';
  return (
    <p className={className}>
      <strong>{name}</strong>
      {author && <span className="muted">{` · ${roleLabelOf(author.role)}`}</span>}
      <span className="muted">{` · ${formatDateTime(createdAt) ?? ''}`}</span>
    </p>
  );
}
