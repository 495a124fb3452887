import { useState, type FormEvent } from 'react';
import { TextField } from '../../../../lib/text-field';
import { ErrorBanner } from '../../../ui/error-banner';
import type { Outcome } from './two-factor-api';

type CodeFormProps = {
  id: string;
  label: string;
  submitLabel: string;
  /** 'one-time-code' for passcodes, so phones offer the code they just received. */
  autoComplete?: string;
  send: (code: string) => Promise<Outcome>;
  /** Runs after the server accepted the code. */
  onAccepted: () => Promise<void> | void;
};

// One code field and its button: the passcode at setup and at sign-in, and the recovery code.
export function CodeForm({ id, label, submitLabel, autoComplete = 'off', send, onAccepted }: CodeFormProps) {
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setError(undefined);
    if (code.trim() === '') return setFieldError('Required');
    setFieldError(undefined);
    setBusy(true);
    const outcome = await send(code.trim());
    if (!outcome.ok) {
      setBusy(false);
      setError(outcome.message);
      return;
    }
    await onAccepted();
    setBusy(false);
  };

  return (
    <form className="stack" noValidate onSubmit={submit}>
      <ErrorBanner message={error} />
      <TextField id={id} label={label} value={code} onChange={setCode} error={fieldError} autoComplete={autoComplete} />
      <button type="submit" className="button button--block" disabled={busy}>
        {busy ? 'Verifying...' : submitLabel}
      </button>
    </form>
  );
}
