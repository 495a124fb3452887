import { useState, type KeyboardEvent } from 'react';

type OptionsInputProps = {
  id: string;
  options: string[];
  onChange: (options: string[]) => void;
  error?: string | undefined;
  disabled?: boolean;
};

/**
 * A choice widget's options as tags (spec §5): Enter adds the typed option, a duplicate is refused
 * with a message, Backspace in the empty input removes the last tag.
 */
export function OptionsInput({ id, options, onChange, error, disabled }: OptionsInputProps) {
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string>();
  const message = problem ?? error;

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      const option = draft.trim();
      if (option === '') return;
      if (options.includes(option)) return setProblem(`"${option}" is already an option`);
      onChange([...options, option]);
      setDraft('');
      setProblem(undefined);
    } else if (event.key === 'Backspace' && draft === '' && options.length > 0) {
      event.preventDefault();
      onChange(options.slice(0, -1));
    }
  };

  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        Options
      </label>
      <ul className="builder-tags" aria-label="Options added">
        {options.map((option) => (
          <li key={option} className="builder-tag">
            <span>{option}</span>
            <button type="button" className="builder-tag__remove" aria-label={`Remove option ${option}`} disabled={disabled} onClick={() => onChange(options.filter((other) => other !== option))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <input
        id={id}
        className="field__input"
        value={draft}
        disabled={disabled}
        autoComplete="off"
        placeholder="Type an option and press Enter"
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? `${id}-error` : undefined}
        onChange={(event) => {
          setDraft(event.target.value);
          setProblem(undefined);
        }}
        onKeyDown={onKeyDown}
      />
      {message && (
        <p className="field__error" id={`${id}-error`} role="status">
          {message}
        </p>
      )}
    </div>
  );
}
