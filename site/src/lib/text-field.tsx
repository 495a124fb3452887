import type { ChangeEvent } from 'react';

type TextFieldProps = {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'password';
  error?: string | undefined;
  autoComplete?: string;
};

// The one text field of the console and the reporter pages. Errors are linked with
// aria-describedby so screen readers announce 'Required' together with the field.
// Autocomplete is off unless a caller asks for it: reporters' devices may be shared.
export function TextField({ id, label, value, onChange, type = 'text', error, autoComplete = 'off' }: TextFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        name={id}
        className="field__input"
        type={type}
        value={value}
        autoComplete={autoComplete}
        autoCapitalize="off"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value)}
      />
      {error && (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
