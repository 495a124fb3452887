import { useId, useRef, useState } from 'react';
import { REDACTION_MARKER, redactSpan } from '../../../../../../api/shared/redaction';
import { Dialog } from '../../../ui/dialog';
import { ErrorBanner } from '../../../ui/error-banner';

// Redaction's dialog (decision 053), in its own chunk: the text in a field that keeps it, where the span
// is selected with the mouse or with Shift and the arrow keys, then a confirmation that shows it.

export type RedactDialogProps = {
  title: string;
  /** The texts that can be redacted (an answer can have several); one for a message. */
  texts: readonly string[];
  /** Runs the redaction; answers an error message, or undefined when it worked. */
  onRedact: (index: number, start: number, end: number) => Promise<string | undefined>;
  onClose: () => void;
};

export const NOTHING_SELECTED = 'Select the words to redact first.';

/**
 * A textarea's value has its line breaks as "\n" even where the text has "\r\n", so its offsets are
 * mapped back onto the text the server holds.
 */
export function textOffset(text: string, fieldOffset: number): number {
  let at = 0;
  for (let field = 0; field < fieldOffset && at < text.length; field += 1) at += text[at] === '\r' && text[at + 1] === '\n' ? 2 : 1;
  return at;
}

/** The field only shows the text: what is typed into it is dropped. */
const keepText = () => undefined;

export function RedactDialog({ title, texts, onRedact, onClose }: RedactDialogProps) {
  const [index, setIndex] = useState(0);
  const [span, setSpan] = useState<{ start: number; end: number }>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const ids = { field: useId(), hint: useId(), choice: useId() };
  const text = texts[index] ?? '';

  const takeSelection = () => {
    const area = field.current;
    if (!area || area.selectionStart === area.selectionEnd) return setError(NOTHING_SELECTED);
    const start = textOffset(text, area.selectionStart);
    const end = textOffset(text, area.selectionEnd);
    // The same rules as the server's, so a selection it would refuse is explained here at once.
    const check = redactSpan(text, start, end);
    if (!check.ok) return setError(check.problem);
    setError(undefined);
    setSpan({ start, end });
  };

  const confirm = async () => {
    if (!span) return;
    setBusy(true);
    const problem = await onRedact(index, span.start, span.end);
    setBusy(false);
    if (problem) setError(problem);
    else onClose();
  };

  const cancel = (
    <button type="button" className="button button--secondary" onClick={onClose} disabled={busy}>
      Cancel
    </button>
  );

  if (span) {
    return (
      <Dialog
        title={title}
        onClose={onClose}
        actions={
          <>
            <button type="button" className="button button--secondary" onClick={() => setSpan(undefined)} disabled={busy}>
              Back
            </button>
            <button type="button" className="button" onClick={() => void confirm()} disabled={busy}>
              {busy ? 'Please wait…' : 'Redact'}
            </button>
          </>
        }
      >
        <ErrorBanner message={error} />
        <p>This text will be replaced by {REDACTION_MARKER} everywhere, exports and the reporter&apos;s view included. The original cannot be restored.</p>
        <blockquote className="redact-dialog__selection">{text.slice(span.start, span.end)}</blockquote>
      </Dialog>
    );
  }

  return (
    <Dialog
      title={title}
      onClose={onClose}
      wide
      actions={
        <>
          {cancel}
          <button type="button" className="button" onClick={takeSelection}>
            Redact selection
          </button>
        </>
      }
    >
      <ErrorBanner message={error} />
      {texts.length > 1 && (
        <div className="field">
          <label htmlFor={ids.choice}>Text</label>
          <select id={ids.choice} value={index} onChange={(event) => setIndex(Number(event.target.value))}>
            {texts.map((option, at) => (
              <option key={at} value={at}>
                {option.length > 60 ? `${option.slice(0, 60)}…` : option}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="field">
        <label htmlFor={ids.field}>Select the words to redact</label>
        {/* Not readOnly: browsers then refuse Shift and the arrow keys, and selecting must work from the keyboard. Typing changes nothing. */}
        <textarea id={ids.field} ref={field} rows={6} value={text} onChange={keepText} aria-readonly="true" aria-describedby={ids.hint} className="redact-dialog__text" />
        <p id={ids.hint} className="muted">
          Select with the mouse, or with Shift and the arrow keys, then choose Redact selection.
        </p>
      </div>
    </Dialog>
  );
}
