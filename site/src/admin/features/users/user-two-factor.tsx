import { useState } from 'react';
import { useMutation } from 'urql';
import { notify } from '../../ui/notice-store';
import { ownProof, ownProofRefusal, ProofDialog, type AccountProof, type ProofRefusal } from '../../ui/proof-dialog';
import { isSuperAdmin, type Viewer } from '../../viewer';
import { SUPER_ADMINS_CANNOT_ENABLE, USER_UPDATE, USER_UPDATED, type EditableUser } from './users-api';

/**
 * Two-factor authentication of another user (spec §6): only a super admin changes it, only to turn
 * it off, and only after confirming with their own password (and passcode; decision 061). Anyone
 * else sees its state; one's own is changed in Settings.
 */
export function UserTwoFactor({ viewer, user }: { viewer: Viewer; user: EditableUser }) {
  const [confirming, setConfirming] = useState(false);
  const [, update] = useMutation(USER_UPDATE);
  const activated = user.twoFactorAuthenticationActivated;
  const mayTurnOff = isSuperAdmin(viewer) && user.id !== viewer.id && activated;

  const turnOff = async (proof: AccountProof): Promise<ProofRefusal | undefined> => {
    const result = await update({ id: user.id, input: { twoFactorAuthenticationActivated: false, ...ownProof(proof) } });
    if (result.error) return ownProofRefusal(result.error);
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
      {confirming && (
        <ProofDialog
          title="Two-Factor Authentication"
          intro={`Are you sure you want to disable this user's Two-Factor Authentication? ${user.firstName} ${user.lastName} will be signed out everywhere.`}
          submitLabel="Disable"
          account={viewer}
          onSubmit={turnOff}
          onClose={() => setConfirming(false)}
        />
      )}
    </div>
  );
}
