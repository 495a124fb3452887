import { useState, type FormEvent } from 'react';
import { passwordProblem } from '../../../../api/shared/password-rule';
import { StrengthBar } from '../../lib/strength-bar';
import { TextField } from '../../lib/text-field';
import { FALLBACK_ERROR_MESSAGE } from '../../lib/http';
import { changePassword, leaveIfSignedOut } from './area-api';

const SUCCESS_MESSAGE = 'Password has been updated successfully';

type Errors = { oldPassword?: string; newPassword?: string };

export function SettingsTab() {
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<string>();
  const [success, setSuccess] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const next: Errors = {};
    if (oldPassword === '') next.oldPassword = 'Required';
    next.newPassword = newPassword === '' ? 'Required' : (passwordProblem(newPassword) ?? undefined);
    setErrors(next);
    setError(undefined);
    setSuccess(false);
    if (next.oldPassword || next.newPassword) return;
    setBusy(true);
    const result = await changePassword(oldPassword, newPassword);
    setBusy(false);
    if (!result.ok) {
      if (!leaveIfSignedOut(result.message)) setError(result.message);
      return;
    }
    if (!result.changed) return setError(FALLBACK_ERROR_MESSAGE);
    setOldPassword('');
    setNewPassword('');
    setSuccess(true);
  };

  return (
    <form className="stack" noValidate autoComplete="off" onSubmit={submit} aria-labelledby="settings-title">
      <h2 id="settings-title">Change Password</h2>
      {error && (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      )}
      {success && (
        <p className="alert" role="status">
          {SUCCESS_MESSAGE}
        </p>
      )}
      <TextField id="oldPassword" label="Old Password" type="password" value={oldPassword} onChange={setOldPassword} error={errors.oldPassword} />
      <TextField id="newPassword" label="New Password" type="password" value={newPassword} onChange={setNewPassword} error={errors.newPassword} />
      <StrengthBar password={newPassword} />
      <button type="submit" className="button" disabled={busy}>
        {busy ? 'Saving…' : 'Change Password'}
      </button>
    </form>
  );
}
