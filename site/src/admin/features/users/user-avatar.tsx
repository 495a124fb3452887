import { useState } from 'react';
import { useMutation } from 'urql';
import { AvatarPicker } from '../../ui/avatar-picker';
import { errorMessage } from '../../ui/errors';
import { notify } from '../../ui/notice-store';
import { UPLOAD_FAILED, USER_UPDATE, USER_UPDATE_AVATAR, USER_UPDATED, type EditableUser } from './users-api';

/** The user's picture: replaced as soon as a file is chosen ('Upload Failed' when it is refused), or removed. */
export function UserAvatar({ user }: { user: EditableUser }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [, upload] = useMutation(USER_UPDATE_AVATAR);
  const [, update] = useMutation(USER_UPDATE);

  const onFile = async (file: File) => {
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
    <AvatarPicker
      person={user}
      alt={`Profile picture of ${user.firstName} ${user.lastName}`}
      error={error}
      busy={busy}
      onFile={(file) => void onFile(file)}
      onProblem={(problem) => setError(`${UPLOAD_FAILED}: ${problem}`)}
      onRemove={() => void onRemove()}
    />
  );
}
