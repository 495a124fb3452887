import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { TextField } from '../../../../lib/text-field';
import { Dialog } from '../../../ui/dialog';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorMessage } from '../../../ui/errors';
import { notify } from '../../../ui/notice-store';
import { FORWARD_MUTATION } from './detail-api';

export function EmailReportDialog({ reportID, onClose }: { reportID: string; onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [error, setError] = useState<string>();
  const [state, forward] = useMutation(FORWARD_MUTATION);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (state.fetching) return;
    const to = email.trim();
    setFieldError(to === '' ? 'Required' : undefined);
    setError(undefined);
    if (to === '') return;
    const result = await forward({ id: reportID, email: to });
    if (result.error) return setError(errorMessage(result.error));
    notify(`Successfully emailed report to ${to}`);
    onClose();
  };

  return (
    <Dialog title="Email Report" onClose={onClose}>
      <form className="stack" noValidate onSubmit={submit}>
        <ErrorBanner message={error} />
        <p className="muted">The recipient gets a link to this report; they still need to sign in to read it.</p>
        <TextField id="email-report-address" label="Email Address" type="email" value={email} onChange={setEmail} error={fieldError} />
        <div className="actions dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose} disabled={state.fetching}>
            Cancel
          </button>
          <button type="submit" className="button" disabled={state.fetching}>
            {state.fetching ? 'Sending…' : 'Send'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
