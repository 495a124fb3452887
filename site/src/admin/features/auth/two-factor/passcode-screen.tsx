import { useState } from 'react';
import { refreshViewer, restoreSession } from '../session-store';
import { CodeForm } from './code-form';
import { TwoFactorLayout } from './two-factor-layout';
import { recover, submitPasscode, type Outcome } from './two-factor-api';

// Step 2 (spec §2): the passcode at every sign-in, or, with a lost device, the recovery code.
// Too many wrong codes end the session on the server; the login page then shows.
export function PasscodeScreen() {
  const [lostDevice, setLostDevice] = useState(false);

  const checked = (send: (code: string) => Promise<Outcome>) => async (code: string) => {
    const outcome = await send(code);
    if (!outcome.ok && outcome.message.startsWith('Too many')) await restoreSession();
    return outcome;
  };

  return (
    <TwoFactorLayout title={lostDevice ? 'Use Your Recovery Code' : 'Two-Factor Authentication'}>
      {lostDevice ? (
        <>
          <p>Enter the recovery code you downloaded when you set up two-factor authentication. You will then set up your new device.</p>
          <CodeForm key="recovery" id="recoveryCode" label="Recovery Code" submitLabel="Verify" send={checked(recover)} onAccepted={refreshViewer} />
          <button type="button" className="two-factor__switch" onClick={() => setLostDevice(false)}>
            Use a passcode instead
          </button>
        </>
      ) : (
        <>
          <p>Enter the passcode from your authenticator app.</p>
          <CodeForm key="passcode" id="passcode" label="Passcode" submitLabel="Verify" autoComplete="one-time-code" send={checked(submitPasscode)} onAccepted={refreshViewer} />
          <button type="button" className="two-factor__switch" onClick={() => setLostDevice(true)}>
            Lost your device? Use your recovery code
          </button>
        </>
      )}
    </TwoFactorLayout>
  );
}
