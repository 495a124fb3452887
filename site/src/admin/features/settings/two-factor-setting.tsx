import { useState } from 'react';
import { useMutation } from 'urql';
import { ProofDialog, proofRefusal, type AccountProof, type ProofRefusal } from '../../ui/proof-dialog';
import { CHANGE_DETAILS_MUTATION, type Profile } from './settings-api';

type TwoFactorSettingProps = {
  profile: Profile;
  /** Reloads the viewer: turning it on shows the setup screen at once, off clears the top bar's warning. */
  onChanged: () => void;
};

// Two-factor authentication on the profile: its state, and turning it on or off once the account is proven (decision 061).
export function TwoFactorSetting({ profile, onChanged }: TwoFactorSettingProps) {
  const [confirming, setConfirming] = useState(false);
  const [, changeDetails] = useMutation(CHANGE_DETAILS_MUTATION);
  const activated = profile.twoFactorAuthenticationActivated;

  const change = async (proof: AccountProof): Promise<ProofRefusal | undefined> => {
    const result = await changeDetails({ input: { twoFactorAuthenticationActivated: !activated, ...proof } });
    if (result.error) return proofRefusal(result.error);
    onChanged();
    return undefined;
  };

  return (
    <div className="settings-two-factor stack">
      <p>
        <span className="field__label">Two-Factor Authentication: </span>
        {activated ? 'Activated' : 'Not Activated'}
      </p>
      <div className="actions">
        <button type="button" className="button button--secondary" onClick={() => setConfirming(true)}>
          {activated ? 'Disable Two-Factor Authentication' : 'Enable Two-Factor Authentication'}
        </button>
      </div>
      {confirming && (
        <ProofDialog
          title="Two-Factor Authentication"
          intro={
            activated
              ? "Are you sure you want to disable this account's Two-Factor Authentication? Your other sessions will be signed out."
              : "Are you sure you want to enable this account's Two-Factor Authentication? You will scan a QR code with your authenticator app next."
          }
          submitLabel={activated ? 'Disable' : 'Enable'}
          account={profile}
          onSubmit={change}
          onClose={() => setConfirming(false)}
        />
      )}
    </div>
  );
}
