import { useEffect, useState } from 'react';
import { ErrorBanner } from '../../../ui/error-banner';
import { refreshViewer } from '../session-store';
import { CodeForm } from './code-form';
import { TwoFactorLayout } from './two-factor-layout';
import { loadSecret, submitPasscode, undoSetup } from './two-factor-api';
import { setRecoveryCodeOwed } from './two-factor-store';
import { QrCode } from './qr-code';

// Step 1 (spec §2): scan the key, or type its secret, then prove it with a passcode. The back arrow
// undoes setup: two-factor authentication is off again and the console opens.
export function SetupScreen({ userID }: { userID: string }) {
  const [key, setKey] = useState<{ secret: string; qrCodeString: string }>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let current = true;
    void loadSecret().then((outcome) => {
      if (!current) return;
      if (outcome.ok) setKey(outcome.value);
      else setError(outcome.message);
    });
    return () => {
      current = false;
    };
  }, []);

  const back = async () => {
    const outcome = await undoSetup();
    if (!outcome.ok) return setError(outcome.message);
    await refreshViewer();
  };

  return (
    <TwoFactorLayout title="Set Up Two-Factor Authentication" onBack={() => void back()}>
      <ErrorBanner message={error} />
      <p>Scan this QR code with your authenticator app, or enter the secret below, then enter the passcode it shows.</p>
      {key ? (
        <>
          <QrCode value={key.qrCodeString} label="QR code for your authenticator app" />
          <div className="field">
            <span className="field__label" id="two-factor-secret-label">
              Secret
            </span>
            <code className="two-factor__secret" aria-labelledby="two-factor-secret-label">
              {key.secret}
            </code>
          </div>
          <CodeForm
            id="passcode"
            label="Passcode"
            submitLabel="Submit"
            autoComplete="one-time-code"
            send={submitPasscode}
            onAccepted={async () => {
              setRecoveryCodeOwed(userID);
              await refreshViewer();
            }}
          />
        </>
      ) : (
        !error && (
          <p className="muted" role="status">
            Loading…
          </p>
        )
      )}
    </TwoFactorLayout>
  );
}
