import { useState, type FormEvent } from 'react';
import type { CombinedError } from 'urql';
import * as v from 'valibot';
import { postJson } from '../../lib/http';
import { TextField } from '../../lib/text-field';
import { Dialog } from './dialog';
import { DialogFormActions } from './dialog-form';
import { ErrorBanner } from './error-banner';
import { errorMessage, fieldProblems } from './errors';

/** What the server takes as proof of the account (decision 061); the caller sends it with the change. */
export type AccountProof = { password: string; passcode?: string; recoveryCode?: string };

/** What a refused change answered: its message, and the problems of the proof's own fields. */
export type ProofRefusal = { message?: string | undefined; fields?: Record<string, string> };

type ProofDialogProps = {
  title: string;
  /** What is about to happen, in a sentence. */
  intro: string;
  submitLabel: string;
  /** The acting user's own account: a single sign-on account has no password, and two-factor asks a passcode too. */
  account: { isSSO: boolean; twoFactorAuthenticationActivated: boolean };
  /** Makes the change with the proof; answers what went wrong, or undefined when it worked (the dialog then closes). */
  onSubmit: (proof: AccountProof) => Promise<ProofRefusal | undefined>;
  onClose: () => void;
};

/** A refused GraphQL change as the dialog shows it: the message above, the proof's problems under its fields. */
export function proofRefusal(error: CombinedError): ProofRefusal {
  return { message: errorMessage(error), fields: fieldProblems(error) };
}

// userUpdate and organisationUpdate take the acting user's own proof as ownPassword, ownPasscode and
// ownRecoveryCode: userUpdate's `password` is the new one being set for the other user (decision 061).

const OWN_NAMES = { password: 'ownPassword', passcode: 'ownPasscode', recoveryCode: 'ownRecoveryCode' } as const;

/** The proof dialog's answer, as the own-proof input fields. */
export function ownProof(proof: AccountProof): Record<string, string> {
  const input: Record<string, string> = {};
  for (const key of Object.keys(OWN_NAMES) as (keyof AccountProof)[]) {
    const value = proof[key];
    if (value) input[OWN_NAMES[key]] = value;
  }
  return input;
}

/** A refused userUpdate or organisationUpdate, its own-proof problems named as the proof dialog's fields are. */
export function ownProofRefusal(error: CombinedError): ProofRefusal {
  const refusal = proofRefusal(error);
  const fields: Record<string, string> = {};
  for (const [key, own] of Object.entries(OWN_NAMES)) if (refusal.fields?.[own]) fields[key] = refusal.fields[own]!;
  return { message: refusal.message, fields };
}

const startResponse = v.object({ url: v.pipe(v.string(), v.url()) });

/**
 * Asks again for proof of the account before a change of how it signs in or where its mail goes:
 * the current password, and the passcode (or the recovery code) while two-factor is on. A single
 * sign-on account signs in again with Microsoft instead, then repeats the change.
 */
export function ProofDialog({ title, intro, submitLabel, account, onSubmit, onClose }: ProofDialogProps) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [useRecoveryCode, setUseRecoveryCode] = useState(false);
  const [refusal, setRefusal] = useState<ProofRefusal>({});
  const [busy, setBusy] = useState(false);
  const twoFactor = account.twoFactorAuthenticationActivated;
  const codeField = useRecoveryCode ? 'recoveryCode' : 'passcode';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const missing: Record<string, string> = {};
    if (!account.isSSO && password === '') missing.password = 'Required';
    if (twoFactor && code.trim() === '') missing[codeField] = 'Required';
    if (Object.keys(missing).length > 0) return setRefusal({ fields: missing });
    setBusy(true);
    setRefusal({});
    const proof: AccountProof = { password, ...(twoFactor ? { [codeField]: code.trim() } : {}) };
    const problem = await onSubmit(proof);
    setBusy(false);
    if (problem) setRefusal(problem);
    else onClose();
  };

  const signInAgain = async () => {
    setBusy(true);
    const started = await postJson('/api/auth/login_sso/start', { reauthenticate: true });
    const parsed = started.ok ? v.safeParse(startResponse, started.data) : undefined;
    if (parsed?.success) return window.location.assign(parsed.output.url);
    setBusy(false);
    setRefusal({ message: started.ok ? undefined : started.message });
  };

  const fields = refusal.fields ?? {};
  // A problem shown under its field is not repeated above the form.
  const banner = refusal.message && !Object.values(fields).includes(refusal.message) ? refusal.message : undefined;
  return (
    <Dialog title={title} onClose={onClose}>
      <form className="stack" noValidate onSubmit={submit}>
        <ErrorBanner message={banner} />
        <p>{intro}</p>
        {account.isSSO ? (
          <div className="stack">
            <p>To confirm it is you, sign in again with your Microsoft account, then repeat the change within five minutes.</p>
            <div className="actions">
              <button type="button" className="button button--secondary" disabled={busy} onClick={() => void signInAgain()}>
                Sign in again With Microsoft Account
              </button>
            </div>
          </div>
        ) : (
          <TextField id="proof-password" label="Current Password" type="password" value={password} onChange={setPassword} error={fields.password} autoComplete="current-password" />
        )}
        {twoFactor && (
          <>
            <TextField
              id="proof-code"
              label={useRecoveryCode ? 'Recovery Code' : 'Passcode from your authenticator app'}
              value={code}
              onChange={setCode}
              error={fields[codeField]}
              autoComplete="one-time-code"
            />
            <button type="button" className="link-button" onClick={() => setUseRecoveryCode(!useRecoveryCode)}>
              {useRecoveryCode ? 'Use a passcode instead' : 'Lost your device? Use your recovery code'}
            </button>
          </>
        )}
        <DialogFormActions busy={busy} submitLabel={submitLabel} busyLabel="Please wait…" onCancel={onClose} />
      </form>
    </Dialog>
  );
}
