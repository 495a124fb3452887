import { useEffect, useRef, useState } from 'react';
import { ErrorBanner } from '../../../ui/error-banner';
import { ProofDialog, type AccountProof, type ProofRefusal } from '../../../ui/proof-dialog';
import { refreshViewer } from '../session-store';
import { TwoFactorLayout } from './two-factor-layout';
import { loadRecoveryCode, RECOVERY_CODE_FILE } from './two-factor-api';
import { setRecoveryCodeOwed } from './two-factor-store';

function download(code: string): void {
  const text = `Lantern recovery code\n\n${code}\n\nUse it once to sign in if you lose your authenticator device.\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = RECOVERY_CODE_FILE;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

type RecoveryDownloadScreenProps = {
  /** Replacing a code the account already has asks for proof of the account first (decision 061). */
  account: { hasRecoveryCode: boolean; isSSO: boolean; twoFactorAuthenticationActivated: boolean };
};

// Step 3 (spec §2): the recovery code must be downloaded before Next enables. Each visit issues a
// new code (the server keeps only its hash), so a code that was never saved is never needed.
export function RecoveryDownloadScreen({ account }: RecoveryDownloadScreenProps) {
  const [code, setCode] = useState<string>();
  const [error, setError] = useState<string>();
  const [downloaded, setDownloaded] = useState(false);
  const [proving, setProving] = useState(account.hasRecoveryCode);
  const asked = useRef(false);

  useEffect(() => {
    // Once per screen: a second request would void the code already shown.
    if (asked.current || account.hasRecoveryCode) return;
    asked.current = true;
    void loadRecoveryCode().then((outcome) => (outcome.ok ? setCode(outcome.value) : setError(outcome.message)));
  }, [account.hasRecoveryCode]);

  const loadWithProof = async (proof: AccountProof): Promise<ProofRefusal | undefined> => {
    const outcome = await loadRecoveryCode(proof);
    if (!outcome.ok) return { message: outcome.message };
    setCode(outcome.value);
    return undefined;
  };

  const next = async () => {
    setRecoveryCodeOwed(null);
    await refreshViewer();
  };

  return (
    <TwoFactorLayout title="Download Recovery Code">
      <ErrorBanner message={error} />
      <p>If you lose your device, this recovery code is the only way into your account. Download it and keep it somewhere safe.</p>
      {code && <code className="two-factor__code">{code}</code>}
      {!code && account.hasRecoveryCode && !proving && (
        <button type="button" className="link-button" onClick={() => setProving(true)}>
          Confirm it is you to get a new recovery code
        </button>
      )}
      {proving && (
        <ProofDialog
          title="New Recovery Code"
          intro="A new recovery code replaces the one you have: the old one stops working."
          submitLabel="Get Code"
          account={account}
          onSubmit={loadWithProof}
          onClose={() => setProving(false)}
        />
      )}
      <div className="actions">
        <button
          type="button"
          className="button"
          disabled={!code}
          onClick={() => {
            download(code!);
            setDownloaded(true);
          }}
        >
          Download
        </button>
        <button type="button" className="button" disabled={!downloaded} onClick={() => void next()}>
          Next
        </button>
      </div>
    </TwoFactorLayout>
  );
}
