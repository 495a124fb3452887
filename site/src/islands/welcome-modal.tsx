import { useEffect, useRef } from 'react';
import { QuickExit } from './quick-exit';
import { toPlainText } from './plain-text';

type WelcomeModalProps = {
  content: string;
  onClose: () => void;
};

// A native modal <dialog> gives focus trapping and an inert background for
// free. Because the page behind it is inert, the dialog carries its own
// Quick Exit button; Escape still exits through the page-level shortcut.
export function WelcomeModal({ content, onClose }: WelcomeModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    // Unmounting removes the element, which also takes it off the top layer.
    if (dialog && !dialog.open) dialog.showModal();
    // showModal() focuses the first button, which is Quick Exit: an Enter
    // meant to dismiss the welcome must not send the reporter away.
    closeRef.current?.focus();
  }, []);

  return (
    <dialog ref={dialogRef} className="modal" aria-labelledby="welcome-modal-title" onClose={onClose}>
      <div className="modal__quick-exit">
        <QuickExit shortcut={false} />
      </div>
      <h2 id="welcome-modal-title">Welcome</h2>
      <p className="modal__text">{toPlainText(content)}</p>
      <div className="actions">
        <button ref={closeRef} type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
