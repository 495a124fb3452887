import { useRef, useState, type ChangeEvent } from 'react';
import { useMutation } from 'urql';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { notify } from '../../ui/notice-store';
import { AVATAR_EXTENSIONS, avatarFileProblem, UPLOAD_FAILED, USER_UPDATE, USER_UPDATE_AVATAR, USER_UPDATED, type EditableUser } from './users-api';

/** The user's picture: replaced as soon as a file is chosen ('Upload Failed' when it is refused), or removed. */
export function UserAvatar({ user }: { user: EditableUser }) {
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [, upload] = useMutation(USER_UPDATE_AVATAR);
  const [, update] = useMutation(USER_UPDATE);
  const initials = `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase() || user.email.charAt(0).toUpperCase();

  const onChoose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || busy) return;
    const problem = avatarFileProblem(file);
    if (problem) return setError(`${UPLOAD_FAILED}: ${problem}`);
    setError(undefined);
    setBusy(true);
    const result = await upload({ id: user.id, file });
    setBusy(false);
    if (result.error) return setError(`${UPLOAD_FAILED}: ${errorMessage(result.error)}`);
    notify(USER_UPDATED);
  };

  const onRemove = async () => {
    setBusy(true);
    const result = await update({ id: user.id, input: { avatarBlobID: '-' } });
    setBusy(false);
    if (result.error) return setError(errorMessage(result.error));
    notify(USER_UPDATED);
  };

  return (
    <div className="avatar-field">
      {user.avatar ? (
        <img className="avatar-field__image" src={user.avatar.fileURL} alt={`Profile picture of ${user.firstName} ${user.lastName}`} />
      ) : (
        <span className="avatar-field__image avatar-field__initials" aria-hidden="true">
          {initials}
        </span>
      )}
      <div className="stack">
        <ErrorBanner message={error} />
        <div className="actions">
          <input ref={input} className="avatar-field__input" type="file" tabIndex={-1} aria-label="Profile picture file" accept={AVATAR_EXTENSIONS.join(',')} onChange={(event) => void onChoose(event)} />
          <button type="button" className="button button--secondary button--small" disabled={busy} onClick={() => input.current?.click()}>
            {busy ? 'Saving…' : user.avatar ? 'Change Image' : 'Upload Image'}
          </button>
          {user.avatar && (
            <button type="button" className="link-button" disabled={busy} onClick={() => void onRemove()}>
              Remove Image
            </button>
          )}
        </div>
        <p className="muted avatar-field__hint">A .jpg or .png image of at most 5 MB.</p>
      </div>
    </div>
  );
}
