import { useEffect, useState, type FormEvent } from 'react';
import { INVALID_RESET_LINK, PASSWORD_RESET_DONE } from '../../../../../api/shared/messages';
import { passwordProblem } from '../../../../../api/shared/password-rule';
import { StrengthBar } from '../../../lib/strength-bar';
import { TextField } from '../../../lib/text-field';
import { navigate } from '../../router';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { checkResetLink, resetPassword, type ResetLinkState } from './account-access-api';

const REQUIRED = 'Required';
const LOGIN_PATH = '/admin';

type Stage = { kind: 'checking' } | { kind: 'invalid' } | { kind: 'unreachable'; message: string } | { kind: 'form' } | { kind: 'done' };

function stageOf(state: ResetLinkState): Stage {
  if (state === 'valid') return { kind: 'form' };
  if (state === 'invalid') return { kind: 'invalid' };
  return { kind: 'unreachable', message: state.error };
}

/** /admin/reset-password/:token: the link is checked as the page opens; then a new password with the strength bar and the rule. */
type ResetPasswordPageProps = {
  token: string;
  /** Every session of the account has ended: this browser forgets its user if it was signed in. */
  onPasswordReset: () => void;
};

export function ResetPasswordPage({ token, onPasswordReset }: ResetPasswordPageProps) {
  useDocumentTitle(['Reset Password']);
  const [stage, setStage] = useState<Stage>({ kind: 'checking' });
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let current = true;
    void checkResetLink(token).then((state) => current && setStage(stageOf(state)));
    return () => {
      current = false;
    };
  }, [token]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const problem = password === '' ? REQUIRED : (passwordProblem(password) ?? undefined);
    setFieldError(problem);
    setError(undefined);
    if (problem) return;
    setSaving(true);
    const outcome = await resetPassword(token, password);
    setSaving(false);
    if (outcome.ok) {
      onPasswordReset();
      return setStage({ kind: 'done' });
    }
    if (outcome.message === INVALID_RESET_LINK) return setStage({ kind: 'invalid' });
    setError(outcome.message);
  };

  return (
    <main className="container container--narrow admin-login-page">
      <form className="card stack admin-login" noValidate onSubmit={submit} aria-labelledby="reset-password-title" aria-busy={stage.kind === 'checking'}>
        <h1 id="reset-password-title" tabIndex={-1}>
          Reset Password
        </h1>
        {stage.kind === 'checking' && (
          <p className="muted" role="status">
            Checking your link…
          </p>
        )}
        {stage.kind === 'invalid' && <ErrorBanner message={INVALID_RESET_LINK} />}
        {stage.kind === 'unreachable' && <ErrorBanner message={stage.message} />}
        {stage.kind === 'form' && (
          <>
            <ErrorBanner message={error} />
            <TextField id="newPassword" label="New Password" type="password" value={password} onChange={setPassword} error={fieldError} autoComplete="new-password" />
            <StrengthBar password={password} />
            <p className="muted">At least 8 characters, with at least 1 letter and 1 number. You will be signed out everywhere and sign in with the new password.</p>
            <button type="submit" className="button button--block" disabled={saving}>
              {saving ? 'Saving…' : 'Reset Password'}
            </button>
          </>
        )}
        {stage.kind === 'done' && (
          <p className="alert" role="status">
            {PASSWORD_RESET_DONE}
          </p>
        )}
        {stage.kind !== 'form' && stage.kind !== 'checking' && (
          <button type="button" className="button button--block" onClick={() => navigate(LOGIN_PATH)}>
            Go Back
          </button>
        )}
      </form>
    </main>
  );
}
