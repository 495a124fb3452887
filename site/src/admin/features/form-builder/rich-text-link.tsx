import { useEffect, useId, useRef, useState } from 'react';
import { isSafeLink } from './rich-text-schema';

export const LINK_REFUSED = 'Links must start with http://, https:// or mailto:';

/**
 * The toolbar's link control: a toggle that opens a small form for the address. Addresses the server
 * would strip (javascript:, data:, relative paths) are refused here with a message instead.
 */
export function RichTextLink(props: { href: string | null; disabled?: boolean; onApply(href: string | null): void }) {
  const formId = useId();
  const errorId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState('');

  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);

  const toggle = () => {
    setText(props.href ?? 'https://');
    setError('');
    setOpen(!open);
  };

  const apply = () => {
    const href = text.trim();
    // The prefilled 'https://' alone is not an address yet.
    if (!isSafeLink(href) || /^(?:https?:\/\/|mailto:)$/i.test(href)) {
      setError(LINK_REFUSED);
      inputRef.current?.focus();
      return;
    }
    setOpen(false);
    props.onApply(href);
  };

  return (
    <div className="rich-text__link">
      <button type="button" aria-pressed={Boolean(props.href)} aria-expanded={open} aria-controls={open ? formId : undefined} disabled={props.disabled} onClick={toggle}>
        Link
      </button>
      {open ? (
        <div id={formId} className="rich-text__link-form" role="group" aria-label="Link address">
          <input
            ref={inputRef}
            type="text"
            inputMode="url"
            aria-label="Link address"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                apply();
              }
              if (event.key === 'Escape') {
                event.preventDefault();
                setOpen(false);
              }
            }}
          />
          <button type="button" onClick={apply}>
            Apply link
          </button>
          {props.href ? (
            <button
              type="button"
              onClick={() => {
                setOpen(false);
                props.onApply(null);
              }}
            >
              Remove link
            </button>
          ) : null}
          {error ? (
            <span id={errorId} className="rich-text__error" role="alert">
              {error}
            </span>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
