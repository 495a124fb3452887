import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { returnFocusTo } from './screen-focus';

type DialogProps = {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Buttons at the foot of the dialog. */
  actions?: ReactNode;
  wide?: boolean;
};

/**
 * A modal on the browser's own <dialog>: it traps focus, closes on Escape and hides the page
 * from screen readers while open. Mount it to open it; unmount it to close it. Closed, it gives
 * focus back to the control that opened it, or to the screen's heading when that control is gone
 * (a Close Report button after the report is closed).
 * It lives at the end of <body>, outside the page's layout, so no page rule can move it off centre.
 */
export function Dialog({ title, onClose, children, actions, wide = false }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : undefined;
    if (!dialog.open) dialog.showModal();
    const onCancel = (event: Event) => {
      event.preventDefault();
      close.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      returnFocusTo(opener);
    };
  }, []);

  return createPortal(
    <dialog ref={ref} className={`dialog${wide ? ' dialog--wide' : ''}`} aria-labelledby={titleId}>
      <div className="dialog__header">
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
        <button type="button" className="dialog__close" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      <div className="dialog__body stack">{children}</div>
      {actions && <div className="dialog__actions actions">{actions}</div>}
    </dialog>,
    document.body,
  );
}
