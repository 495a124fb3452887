import { useEffect, useRef, useState } from 'react';
import { ESCAPE_CLOSES_ATTRIBUTE } from './escape-closes';

type ToggletipProps = {
  id: string;
  text: string;
  /** What the tip is about, for the button's accessible name. */
  about: string;
};

// A toggletip rather than a hover tooltip: it works by touch and keyboard, and
// the text lands in a live region so screen readers announce it on demand.
// Escape closes an open tip. On reporter pages Escape is otherwise Quick Exit,
// so the tip claims that key press (preventDefault) before the page-wide shortcut sees it.
export function Toggletip({ id, text, about }: ToggletipProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLSpanElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (event.target instanceof Node && !rootRef.current?.contains(event.target)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.isComposing || event.defaultPrevented) return;
      event.preventDefault();
      setOpen(false);
      if (rootRef.current?.contains(document.activeElement)) buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', closeOutside);
    // Capture phase: this runs before any bubbling Escape handler on the page.
    window.addEventListener('keydown', closeOnEscape, true);
    return () => {
      document.removeEventListener('pointerdown', closeOutside);
      window.removeEventListener('keydown', closeOnEscape, true);
    };
  }, [open]);

  return (
    <span className="toggletip" ref={rootRef} {...(open ? { [ESCAPE_CLOSES_ATTRIBUTE]: '' } : {})}>
      <button
        ref={buttonRef}
        type="button"
        className="toggletip__button"
        aria-expanded={open}
        aria-controls={id}
        aria-label={`More information: ${about}`}
        onClick={() => setOpen((value) => !value)}
      >
        i
      </button>
      {/* The live region stays mounted so the tip is announced when it appears. */}
      <span id={id} role="status" className="toggletip__region">
        {open && <span className="toggletip__bubble">{text}</span>}
      </span>
    </span>
  );
}
