export const LOADING_MESSAGE = 'Please wait. Anonymising your IP.';

type StepActionsProps = {
  busy: boolean;
  onBack?: (() => void) | undefined;
  nextLabel?: string;
  nextDisabled?: boolean;
};

// Next is the form's submit button, so Enter in a single-line field moves on
// the same way a click does; Back never submits.
export function StepActions({ busy, onBack, nextLabel = 'Next', nextDisabled = false }: StepActionsProps) {
  return (
    <div className="report-actions">
      {busy && (
        <p className="report-actions__status" role="status">
          {LOADING_MESSAGE}
        </p>
      )}
      <div className="actions">
        {onBack && (
          <button type="button" className="button report-button--back" onClick={onBack} disabled={busy}>
            Back
          </button>
        )}
        <button type="submit" className="button report-button--next" disabled={busy || nextDisabled}>
          {nextLabel}
        </button>
      </div>
    </div>
  );
}

export function FlowError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="alert alert--error" role="alert" data-flow-error>
      {message}
    </p>
  );
}
