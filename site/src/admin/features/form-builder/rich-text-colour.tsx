import { useEffect, useId, useState } from 'react';
import { RICH_TEXT_STYLES } from '../../../../../api/shared/rich-text';

/**
 * One colour control of the toolbar: a picker and a hex field kept in sync, plus a remove button.
 * Only hex colours are stored (api/shared/rich-text.ts), so the field refuses anything else.
 */
export function RichTextColour(props: {
  label: string;
  value: string | null;
  fallback: string;
  disabled?: boolean;
  onApply(colour: string | null): void;
}) {
  const errorId = useId();
  const [text, setText] = useState(props.value ?? '');
  const [error, setError] = useState('');
  useEffect(() => {
    setText(props.value ?? '');
    setError('');
  }, [props.value]);

  const applyText = () => {
    const colour = text.trim().toLowerCase();
    if (colour === (props.value ?? '')) return;
    if (!RICH_TEXT_STYLES.color!.test(colour)) {
      setError('Enter a hex colour such as #1a2b3c');
      return;
    }
    setError('');
    props.onApply(colour);
  };

  return (
    <div className="rich-text__colour" role="group" aria-label={props.label}>
      <input
        type="color"
        aria-label={`${props.label} picker`}
        value={expandHex(props.value) ?? props.fallback}
        disabled={props.disabled}
        onChange={(event) => props.onApply(event.currentTarget.value)}
      />
      <input
        type="text"
        className="rich-text__hex"
        aria-label={`${props.label} hex`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        placeholder="#rrggbb"
        maxLength={7}
        spellCheck={false}
        value={text}
        disabled={props.disabled}
        onChange={(event) => setText(event.currentTarget.value)}
        onBlur={applyText}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          applyText();
        }}
      />
      <button type="button" aria-label={`Remove ${props.label.toLowerCase()}`} disabled={props.disabled || !props.value} onClick={() => props.onApply(null)}>
        ×
      </button>
      {error ? (
        <span id={errorId} className="rich-text__error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** The picker only takes #rrggbb; a stored #rgb is widened for it. */
export function expandHex(colour: string | null): string | null {
  if (!colour) return null;
  if (/^#[0-9a-f]{3}$/i.test(colour)) return `#${[...colour.slice(1)].map((digit) => digit + digit).join('')}`.toLowerCase();
  return colour.toLowerCase();
}
