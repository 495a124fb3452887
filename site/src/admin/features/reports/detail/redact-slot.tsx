import { lazy, Suspense, useState } from 'react';
import type { RedactDialogProps } from './redact-dialog';

// The Redact action: a small button in the report's chunk; the dialog behind it is fetched only
// when someone opens it, so the console's first load carries none of it (decision 024).

const RedactDialog = lazy(() => import('./redact-dialog').then((module) => ({ default: module.RedactDialog })));

type RedactButtonProps = Omit<RedactDialogProps, 'onClose'> & {
  /** What is redacted, for the button's accessible name ("Redact: Summary"). */
  label: string;
};

export function RedactButton({ label, ...dialog }: RedactButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button--secondary button--small redact-button" aria-label={`Redact: ${label}`} onClick={() => setOpen(true)}>
        Redact
      </button>
      {open && (
        <Suspense fallback={null}>
          <RedactDialog {...dialog} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
