import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { CLOSE_OUTCOMES } from '../../../../../../api/shared/enums';
import { spaced } from '../../../ui/badges';
import { Dialog } from '../../../ui/dialog';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorMessage } from '../../../ui/errors';
import { notify } from '../../../ui/notice-store';
import { CLOSE_MUTATION } from './detail-api';
import { DialogFormActions } from '../../../ui/dialog-form';

type Outcome = (typeof CLOSE_OUTCOMES)[number];

/** The dialog's wording of the eight outcomes (spec section 4): only the first word capitalised. */
export function outcomeLabel(outcome: Outcome): string {
  const words = spaced(outcome).split(' ');
  return [words[0], ...words.slice(1).map((word) => word.toLowerCase())].join(' ');
}

export function CloseReportDialog({ reportID, onClose }: { reportID: string; onClose: () => void }) {
  const [outcome, setOutcome] = useState<Outcome>('Completed');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const [state, close] = useMutation(CLOSE_MUTATION);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (state.fetching) return;
    setError(undefined);
    const result = await close({ id: reportID, completeStatus: outcome, note: note.trim() || null });
    if (result.error) return setError(errorMessage(result.error));
    notify(`Successfully marked Report as ${spaced(outcome)}`);
    onClose();
  };

  return (
    <Dialog title="Close Report" onClose={onClose}>
      <form className="stack" noValidate onSubmit={submit}>
        <ErrorBanner message={error} />
        <fieldset className="choice-list">
          <legend className="field__label">Outcome</legend>
          {CLOSE_OUTCOMES.map((value) => (
            <label key={value} className="choice-list__option">
              <input type="radio" name="close-outcome" value={value} checked={outcome === value} onChange={() => setOutcome(value)} />
              <span>{outcomeLabel(value)}</span>
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label className="field__label" htmlFor="close-note">
            Note (optional)
          </label>
          <textarea id="close-note" className="field__input" rows={3} value={note} onChange={(event) => setNote(event.target.value)} />
        </div>
        <DialogFormActions busy={state.fetching} submitLabel='Close Report' busyLabel='Closing…' onCancel={onClose} />
      </form>
    </Dialog>
  );
}
