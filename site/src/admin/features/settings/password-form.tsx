import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { passwordProblem } from '../../../../../api/shared/password-rule';
import { StrengthBar } from '../../../lib/strength-bar';
import { TextField } from '../../../lib/text-field';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { CHANGE_PASSWORD_MUTATION, fieldProblems, REQUIRED } from './settings-api';

type Errors = { oldPassword?: string; newPassword?: string; passcode?: string };

const SAME_PASSWORD = 'The new password must be different from the old password.';

type PasswordFormProps = {
  /** With two-factor on, the passcode is asked too (decision 061). */
  twoFactor: boolean;
  /** Every session has ended (spec §4: the user is logged out); the console shows the login page. */
  onChanged: () => void;
};

export function PasswordForm({ twoFactor, onChanged }: PasswordFormProps) {
  const [oldPassword, setOldPassword] = useState('');
  const [passcode, setPasscode] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [, changePassword] = useMutation(CHANGE_PASSWORD_MUTATION);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const next: Errors = {};
    if (oldPassword === '') next.oldPassword = REQUIRED;
    if (newPassword === '') next.newPassword = REQUIRED;
    else next.newPassword = passwordProblem(newPassword) ?? (newPassword === oldPassword ? SAME_PASSWORD : undefined);
    if (twoFactor && passcode.trim() === '') next.passcode = REQUIRED;
    setErrors(next);
    setError(undefined);
    if (next.oldPassword || next.newPassword || next.passcode) return;
    setSaving(true);
    const result = await changePassword({ oldPassword, newPassword, ...(twoFactor ? { passcode: passcode.trim() } : {}) });
    setSaving(false);
    if (result.error) {
      const problems = fieldProblems(result.error);
      setErrors({ oldPassword: problems.oldPassword, newPassword: problems.newPassword, passcode: problems.passcode });
      return setError(errorMessage(result.error));
    }
    onChanged();
  };

  return (
    <section className="card stack settings-card" aria-labelledby="settings-password-title">
      <h2 id="settings-password-title" className="card__title">
        Change Password
      </h2>
      <form className="stack" noValidate onSubmit={submit}>
        <ErrorBanner message={error} />
        <TextField id="oldPassword" label="Old Password" type="password" value={oldPassword} onChange={setOldPassword} error={errors.oldPassword} autoComplete="current-password" />
        <TextField id="newPassword" label="New Password" type="password" value={newPassword} onChange={setNewPassword} error={errors.newPassword} autoComplete="new-password" />
        <StrengthBar password={newPassword} />
        {twoFactor && (
          <TextField id="passcode" label="Passcode from your authenticator app" value={passcode} onChange={setPasscode} error={errors.passcode} autoComplete="one-time-code" />
        )}
        <p className="muted">At least 8 characters, with at least 1 letter and 1 number. You will be signed out everywhere and sign in again with the new password.</p>
        <div className="actions">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Saving…' : 'Change Password'}
          </button>
        </div>
      </form>
    </section>
  );
}
