import { useState } from 'react';
import { useMutation } from 'urql';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { errorMessage } from '../../ui/errors';
import { CHANGE_DETAILS_MUTATION } from './settings-api';

type TwoFactorSettingProps = {
  activated: boolean;
  /** Reloads the viewer: turning it on shows the setup screen at once, off clears the top bar's warning. */
  onChanged: () => void;
};

// Two-factor authentication on the profile: its state, and turning it on or off after a confirmation.
export function TwoFactorSetting({ activated, onChanged }: TwoFactorSettingProps) {
  const [confirming, setConfirming] = useState(false);
  const [, changeDetails] = useMutation(CHANGE_DETAILS_MUTATION);
  const action = activated ? 'disable' : 'enable';

  const change = async (): Promise<string | undefined> => {
    const result = await changeDetails({ input: { twoFactorAuthenticationActivated: !activated } });
    if (result.error) return errorMessage(result.error);
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
        <ConfirmDialog title="Two-Factor Authentication" action={action} name="account's Two-Factor Authentication" onConfirm={change} onClose={() => setConfirming(false)} />
      )}
    </div>
  );
}
