import { useRef, useState, type ChangeEvent } from 'react';
import { useMutation } from 'urql';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { notify } from '../../ui/notice-store';
import { AVATAR_EXTENSIONS, avatarFileProblem, CHANGE_AVATAR_MUTATION, CHANGE_DETAILS_MUTATION, PROFILE_UPDATED, UPLOAD_FAILED, type Profile } from './settings-api';

function initialsOf(profile: Profile): string {
  const letters = `${profile.firstName.trim().charAt(0)}${profile.lastName.trim().charAt(0)}`.toUpperCase();
  return letters || profile.email.charAt(0).toUpperCase();
}

/** The profile picture: shown, replaced at once when a file is chosen, or removed. */
export function AvatarField({ profile }: { profile: Profile }) {
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [, uploadAvatar] = useMutation(CHANGE_AVATAR_MUTATION);
  const [, changeDetails] = useMutation(CHANGE_DETAILS_MUTATION);

  const onChoose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file chosen again must fire a change again.
    event.target.value = '';
    if (!file || busy) return;
    const problem = avatarFileProblem(file);
    if (problem) return setError(problem);
    setError(undefined);
    setBusy(true);
    const result = await uploadAvatar({ file });
    setBusy(false);
    if (result.error) return setError(`${UPLOAD_FAILED}: ${errorMessage(result.error)}`);
    notify(PROFILE_UPDATED);
  };

  const onRemove = async () => {
    if (busy) return;
    setError(undefined);
    setBusy(true);
    const result = await changeDetails({ input: { avatarBlobID: '-' } });
    setBusy(false);
    if (result.error) return setError(errorMessage(result.error));
    notify(PROFILE_UPDATED);
  };

  return (
    <div className="avatar-field">
      {profile.avatar ? (
        <img className="avatar-field__image" src={profile.avatar.fileURL} alt="Your profile picture" />
      ) : (
        <span className="avatar-field__image avatar-field__initials" aria-hidden="true">
          {initialsOf(profile)}
        </span>
      )}
      <div className="stack">
        <ErrorBanner message={error} />
        <div className="actions">
          <input ref={input} id="avatar-file" className="avatar-field__input" type="file" tabIndex={-1} aria-label="Profile picture file" accept={AVATAR_EXTENSIONS.join(',')} onChange={(event) => void onChoose(event)} />
          <button type="button" className="button button--secondary button--small" disabled={busy} onClick={() => input.current?.click()}>
            {busy ? 'Saving…' : profile.avatar ? 'Change Image' : 'Upload Image'}
          </button>
          {profile.avatar && (
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
