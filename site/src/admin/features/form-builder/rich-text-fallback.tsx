import type { RichTextEditorProps } from './editor-slots';

/**
 * A message's HTML as plain text, for as long as the rich text editor is not part of the build:
 * what is typed is stored as the form's message, and the server sanitises it.
 */
export function RichTextFallback({ id, label, value, onChange, disabled }: RichTextEditorProps) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <textarea id={id} className="field__input" rows={4} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)} />
    </div>
  );
}
