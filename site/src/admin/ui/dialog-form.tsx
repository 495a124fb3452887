// What the console's form dialogs share: the spec's 'Required' for blank fields, and Cancel beside the submit button.

/** 'Required' (spec §5) for every field left blank. */
export function requiredErrors<Fields extends Record<string, string>>(fields: Fields): Partial<Record<keyof Fields, string>> {
  const errors: Partial<Record<keyof Fields, string>> = {};
  for (const key of Object.keys(fields) as (keyof Fields)[]) if ((fields[key] ?? '').trim() === '') errors[key] = 'Required';
  return errors;
}

type DialogFormActionsProps = {
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  onCancel: () => void;
};

/** Cancel and the submit button; both wait while the dialog's call is under way. */
export function DialogFormActions({ busy, submitLabel, busyLabel, onCancel }: DialogFormActionsProps) {
  return (
    <div className="actions dialog__actions">
      <button type="button" className="button button--secondary" onClick={onCancel} disabled={busy}>
        Cancel
      </button>
      <button type="submit" className="button" disabled={busy}>
        {busy ? busyLabel : submitLabel}
      </button>
    </div>
  );
}
