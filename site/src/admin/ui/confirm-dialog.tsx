import { useState } from 'react';
import { Dialog } from './dialog';
import { ErrorBanner } from './error-banner';

type ConfirmDialogProps = {
  /** 'archive', 'remove', 'change owner to' … as in 'Are you sure you want to {action} this {name}?' */
  action: string;
  name: string;
  title?: string;
  /** A question of its own, where the spec words one (the reject invite dialog). */
  question?: string;
  /** Runs the action; answers an error message to show, or undefined when it worked. */
  onConfirm: () => Promise<string | undefined>;
  onClose: () => void;
};

/** The spec's confirmation: the question, Cancel and Yes; a failure stays in the dialog's error block. */
export function ConfirmDialog({ action, name, title = 'Please confirm', question, onConfirm, onClose }: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    const problem = await onConfirm();
    setBusy(false);
    if (problem) setError(problem);
    else onClose();
  };

  return (
    <Dialog
      title={title}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="button" className="button" onClick={() => void confirm()} disabled={busy}>
            {busy ? 'Please wait…' : 'Yes'}
          </button>
        </>
      }
    >
      <ErrorBanner message={error} />
      <p>{question ?? `Are you sure you want to ${action} this ${name}?`}</p>
    </Dialog>
  );
}
