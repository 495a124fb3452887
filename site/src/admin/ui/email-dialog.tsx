import { useState, type FormEvent } from 'react';
import { TextField } from '../../lib/text-field';
import { Dialog } from './dialog';
import { ErrorBanner } from './error-banner';
import { DialogFormActions } from './dialog-form';

type EmailDialogProps = {
  title: string;
  /** One sentence on what the recipient gets. */
  intro: string;
  fieldId: string;
  submitLabel: string;
  busyLabel: string;
  /** Sends to the trimmed address; answers an error message to show, or undefined when it worked (the dialog then closes). */
  onSubmit: (email: string) => Promise<string | undefined>;
  onClose: () => void;
};

/** A dialog asking for one email address ('Required' when empty), with the server's refusal shown at its top. */
export function EmailDialog({ title, intro, fieldId, submitLabel, busyLabel, onSubmit, onClose }: EmailDialogProps) {
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const to = email.trim();
    setFieldError(to === '' ? 'Required' : undefined);
    setError(undefined);
    if (to === '') return;
    setBusy(true);
    const problem = await onSubmit(to);
    setBusy(false);
    if (problem) setError(problem);
    else onClose();
  };

  return (
    <Dialog title={title} onClose={onClose}>
      <form className="stack" noValidate onSubmit={submit}>
        <ErrorBanner message={error} />
        <p className="muted">{intro}</p>
        <TextField id={fieldId} label="Email Address" type="email" value={email} onChange={setEmail} error={fieldError} />
        <DialogFormActions busy={busy} submitLabel={submitLabel} busyLabel={busyLabel} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
