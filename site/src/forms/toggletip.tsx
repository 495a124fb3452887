import { useEffect, useRef, useState } from 'react';

type ToggletipProps = {
  id: string;
  text: string;
  /** What the tip is about, for the button's accessible name. */
  about: string;
};

// A toggletip rather than a hover tooltip: it works by touch and keyboard, and
// the text lands in a live region so screen readers announce it on demand.
// Escape is not used to close it: on reporter pages Escape is Quick Exit.
export function Toggletip({ id, text, about }: ToggletipProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (event.target instanceof Node && !rootRef.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  return (
    <span className="toggletip" ref={rootRef}>
      <button
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
