import { useRef } from 'react';
import { RichText } from '../forms/rich-text';
import { QuickExit } from './quick-exit';
import { useModalDialog } from './use-modal-dialog';

type WelcomeModalProps = {
  content: string;
  onClose: () => void;
};

// Because the page behind the modal is inert, the dialog carries its own Quick
// Exit button. Escape closes the note (the browser's own dialog behaviour); only
// with no dialog open does Escape mean Quick Exit.
export function WelcomeModal({ content, onClose }: WelcomeModalProps) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useModalDialog(closeRef);

  return (
    <dialog ref={dialogRef} className="modal" aria-labelledby="welcome-modal-title" onClose={onClose}>
      <div className="modal__quick-exit">
        <QuickExit shortcut={false} />
      </div>
      <h2 id="welcome-modal-title">Welcome</h2>
      <RichText html={content} />
      <div className="actions">
        <button ref={closeRef} type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
