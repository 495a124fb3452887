import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { passwordProblem } from '../../../../../api/shared/password-rule';
import { StrengthBar } from '../../../lib/strength-bar';
import { TextField } from '../../../lib/text-field';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { notify } from '../../ui/notice-store';
import { ownProof, ownProofRefusal, ProofDialog, type AccountProof, type ProofRefusal } from '../../ui/proof-dialog';
import type { Viewer } from '../../viewer';
import { fieldProblems, PASSWORD_CHANGED, REQUIRED, USER_UPDATE } from './users-api';

/**
 * The Change Password tab: a new password for another user, which signs them out everywhere. The
 * acting user confirms it with their own password first (decision 061).
 */
export function UserPasswordForm({ viewer, userID }: { viewer: Viewer; userID: string }) {
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string>();
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [askingProof, setAskingProof] = useState(false);
  const [, update] = useMutation(USER_UPDATE);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const found = password === '' ? REQUIRED : (passwordProblem(password) ?? undefined);
    setProblem(found);
    setError(undefined);
    if (found) return;
    setAskingProof(true);
  };

  const change = async (proof: AccountProof): Promise<ProofRefusal | undefined> => {
    setSaving(true);
    const result = await update({ id: userID, input: { password, ...ownProof(proof) } });
    setSaving(false);
    if (result.error) {
      // A problem of the new password belongs to the form; one of the proof to the dialog.
      const newPasswordProblem = fieldProblems(result.error).password;
      if (!newPasswordProblem) return ownProofRefusal(result.error);
      setProblem(newPasswordProblem);
      setError(errorMessage(result.error));
      setAskingProof(false);
      return undefined;
    }
    setPassword('');
    notify(PASSWORD_CHANGED);
    return undefined;
  };

  return (
    <>
      <form className="stack" noValidate onSubmit={submit}>
        <ErrorBanner message={error} />
        <TextField id="newPassword" label="New Password" type="password" value={password} onChange={setPassword} error={problem} autoComplete="new-password" />
        <StrengthBar password={password} />
        <p className="muted">At least 8 characters, with at least 1 letter and 1 number. The user is signed out everywhere and signs in again with the new password.</p>
        <div className="actions">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Saving…' : 'Change Password'}
          </button>
        </div>
      </form>
      {askingProof && (
        <ProofDialog
          title="Change Password"
          intro="The user will be signed out everywhere and sign in again with the new password."
          submitLabel="Change Password"
          account={viewer}
          onSubmit={change}
          onClose={() => setAskingProof(false)}
        />
      )}
    </>
  );
}
