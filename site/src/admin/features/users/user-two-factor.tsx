import { useState } from 'react';
import { useMutation } from 'urql';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { errorMessage } from '../../ui/errors';
import { notify } from '../../ui/notice-store';
import { isSuperAdmin, type Viewer } from '../../viewer';
import { SUPER_ADMINS_CANNOT_ENABLE, USER_UPDATE, USER_UPDATED, type EditableUser } from './users-api';

/**
 * Two-factor authentication of another user (spec §6): only a super admin changes it, only to turn
 * it off, and only after confirming. Anyone else sees its state; one's own is changed in Settings.
 */
export function UserTwoFactor({ viewer, user }: { viewer: Viewer; user: EditableUser }) {
  const [confirming, setConfirming] = useState(false);
  const [, update] = useMutation(USER_UPDATE);
  const activated = user.twoFactorAuthenticationActivated;
  const mayTurnOff = isSuperAdmin(viewer) && user.id !== viewer.id && activated;

  const turnOff = async (): Promise<string | undefined> => {
    const result = await update({ id: user.id, input: { twoFactorAuthenticationActivated: false } });
    if (result.error) return errorMessage(result.error);
    notify(USER_UPDATED);
    return undefined;
  };

  return (
    <div className="stack">
      <p>
        <span className="field__label">Two-Factor Authentication: </span>
        {activated ? 'Activated' : 'Not Activated'}
      </p>
      {mayTurnOff && (
        <div className="actions">
          <button type="button" className="button button--secondary" onClick={() => setConfirming(true)}>
            Disable Two-Factor Authentication
          </button>
        </div>
      )}
      {isSuperAdmin(viewer) && user.id !== viewer.id && !activated && <p className="muted">{SUPER_ADMINS_CANNOT_ENABLE}</p>}
      {confirming && <ConfirmDialog title="Two-Factor Authentication" action="disable" name="user's Two-Factor Authentication" onConfirm={turnOff} onClose={() => setConfirming(false)} />}
    </div>
  );
}
