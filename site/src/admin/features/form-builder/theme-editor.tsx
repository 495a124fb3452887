import { useEffect, useId, useState } from 'react';
import { THEME_GROUPS, type FormTheme, type ThemeKey } from '../../../../../api/shared/theme';
import { THEME_DEFAULTS } from '../../../forms/theme-defaults';
import { effectiveColour, normaliseHex, pickerColour, resetAllThemeKeys, resetThemeKey, setThemeColour, themeKeyLabel } from './theme-editor-helpers';
import './theme-editor.css';

export interface ThemeEditorProps {
  value: FormTheme;
  onChange(theme: FormTheme): void;
  disabled?: boolean;
}

export const HEX_ERROR = 'Enter a hex colour such as #1a2b3c';

/**
 * One theme colour: a hex field and a picker kept in sync, and a reset to the palette default.
 * A value that is not hex is shown as an error and never leaves this row.
 */
function ThemeColourRow(props: { themeKey: ThemeKey; stored: string | undefined; colour: string; disabled?: boolean; onSet(colour: string | null): void }) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const label = themeKeyLabel(props.themeKey);
  const [text, setText] = useState(props.stored ?? '');
  const [error, setError] = useState(false);

  // A change from the picker, a reset or a new form replaces what the field shows.
  useEffect(() => {
    setText((current) => ((normaliseHex(current) ?? '') === (props.stored ?? '') ? current : (props.stored ?? '')));
    setError(false);
  }, [props.stored]);

  const onText = (value: string) => {
    setText(value);
    if (value.trim() === '') {
      setError(false);
      if (props.stored !== undefined) props.onSet(null);
      return;
    }
    const colour = normaliseHex(value);
    if (colour) {
      setError(false);
      if (colour !== props.stored) props.onSet(colour);
    }
  };

  return (
    <div className="theme-editor__row">
      <label htmlFor={inputId}>{label}</label>
      <div className="theme-editor__controls">
        <input
          type="color"
          aria-label={`${label} colour picker`}
          value={pickerColour(props.colour)}
          disabled={props.disabled}
          onChange={(event) => props.onSet(event.currentTarget.value)}
        />
        <input
          id={inputId}
          type="text"
          className="theme-editor__hex"
          value={text}
          placeholder={THEME_DEFAULTS[props.themeKey]}
          maxLength={9}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={error || undefined}
          aria-describedby={error ? `${errorId} ${hintId}` : hintId}
          disabled={props.disabled}
          onChange={(event) => onText(event.currentTarget.value)}
          onBlur={() => setError(text.trim() !== '' && normaliseHex(text) === null)}
        />
        <button type="button" aria-label={`Reset ${label.toLowerCase()} to default`} disabled={props.disabled || props.stored === undefined} onClick={() => props.onSet(null)}>
          Reset
        </button>
      </div>
      <span id={hintId} className="theme-editor__hint">
        {props.stored === undefined ? `Default ${THEME_DEFAULTS[props.themeKey]}` : `Default ${THEME_DEFAULTS[props.themeKey]}; set ${props.stored}`}
      </span>
      {error ? (
        <span id={errorId} className="theme-editor__error" role="alert">
          {HEX_ERROR}
        </span>
      ) : null}
    </div>
  );
}

/** The form's theme colours (spec: Theme), grouped as api/shared/theme.ts lists them. */
export function ThemeEditor(props: ThemeEditorProps) {
  const { value, onChange, disabled } = props;
  const set = (key: ThemeKey, colour: string | null) => onChange(colour === null ? resetThemeKey(value, key) : setThemeColour(value, key, colour));
  const anySet = Object.values(value).some((colour) => colour !== undefined);
  return (
    <div className="theme-editor">
      <div className="theme-editor__actions">
        <button type="button" className="button button--secondary" disabled={disabled || !anySet} onClick={() => onChange(resetAllThemeKeys())}>
          Reset all
        </button>
      </div>
      {THEME_GROUPS.map((group) => (
        <details key={group.label} className="theme-editor__group">
          <summary>{group.label}</summary>
          <div className="theme-editor__rows">
            {group.keys.map((key) => (
              <ThemeColourRow key={key} themeKey={key} stored={value[key]} colour={effectiveColour(value, key)} disabled={disabled} onSet={(colour) => set(key, colour)} />
            ))}
          </div>
        </details>
      ))}
    </div>
  );
}

export default ThemeEditor;
