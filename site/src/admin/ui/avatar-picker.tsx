import { useRef, type ChangeEvent } from 'react';
import { ErrorBanner } from './error-banner';

// A staff member's picture, shown and replaced: the user's own in Settings, and another user's in
// Users. An avatar is a jpg or png of at most 10,000,000 bytes, like a logo (spec §5, §9).

export const AVATAR_EXTENSIONS = ['.jpg', '.jpeg', '.png'] as const;
export const AVATAR_MAX_BYTES = 10_000_000;
export const FILE_SIZE_TOO_LARGE = 'File size too large';
export const INVALID_FILE = 'Invalid file';

/** The picker's own checks, before anything is sent. */
export function avatarFileProblem(file: File): string | undefined {
  const name = file.name.toLowerCase();
  if (!AVATAR_EXTENSIONS.some((extension) => name.endsWith(extension))) return INVALID_FILE;
  if (file.size > AVATAR_MAX_BYTES) return FILE_SIZE_TOO_LARGE;
  return undefined;
}

type AvatarPickerProps = {
  person: { firstName: string; lastName: string; email: string; avatar: { fileURL: string } | null };
  alt: string;
  error: string | undefined;
  busy: boolean;
  inputId?: string;
  /** A file that passed the picker's checks; `onProblem` hears about one that did not. */
  onFile: (file: File) => void;
  onProblem: (problem: string) => void;
  onRemove: () => void;
};

export function AvatarPicker({ person, alt, error, busy, inputId, onFile, onProblem, onRemove }: AvatarPickerProps) {
  const input = useRef<HTMLInputElement>(null);
  const initials = `${person.firstName.trim().charAt(0)}${person.lastName.trim().charAt(0)}`.toUpperCase() || person.email.charAt(0).toUpperCase();

  const onChoose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file chosen again must fire a change again.
    event.target.value = '';
    if (!file || busy) return;
    const problem = avatarFileProblem(file);
    if (problem) onProblem(problem);
    else onFile(file);
  };

  return (
    <div className="avatar-field">
      {person.avatar ? (
        <img className="avatar-field__image" src={person.avatar.fileURL} alt={alt} />
      ) : (
        <span className="avatar-field__image avatar-field__initials" aria-hidden="true">
          {initials}
        </span>
      )}
      <div className="stack">
        <ErrorBanner message={error} />
        <div className="actions">
          <input ref={input} id={inputId} className="avatar-field__input" type="file" tabIndex={-1} aria-label="Profile picture file" accept={AVATAR_EXTENSIONS.join(',')} onChange={onChoose} />
          <button type="button" className="button button--secondary button--small" disabled={busy} onClick={() => input.current?.click()}>
            {busy ? 'Saving…' : person.avatar ? 'Change Image' : 'Upload Image'}
          </button>
          {person.avatar && (
            <button type="button" className="link-button" disabled={busy} onClick={onRemove}>
              Remove Image
            </button>
          )}
        </div>
        <p className="muted avatar-field__hint">A .jpg or .png image of at most 5 MB.</p>
      </div>
    </div>
  );
}
