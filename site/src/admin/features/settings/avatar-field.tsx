import { useState } from 'react';
import { useMutation } from 'urql';
import { AvatarPicker } from '../../ui/avatar-picker';
import { errorMessage } from '../../ui/errors';
import { notify } from '../../ui/notice-store';
import { CHANGE_AVATAR_MUTATION, CHANGE_DETAILS_MUTATION, PROFILE_UPDATED, UPLOAD_FAILED, type Profile } from './settings-api';

/** The profile picture: shown, replaced at once when a file is chosen, or removed. */
export function AvatarField({ profile }: { profile: Profile }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [, uploadAvatar] = useMutation(CHANGE_AVATAR_MUTATION);
  const [, changeDetails] = useMutation(CHANGE_DETAILS_MUTATION);

  const onFile = async (file: File) => {
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
    <AvatarPicker
      person={profile}
      alt="Your profile picture"
      inputId="avatar-file"
      error={error}
      busy={busy}
      onFile={(file) => void onFile(file)}
      onProblem={setError}
      onRemove={() => void onRemove()}
    />
  );
}
