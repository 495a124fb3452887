import { useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../../ui/error-banner';
import { Link } from '../../../ui/link';
import { FORGOT_PASSWORD_PATH } from '../../../paths';
import { TextField } from '../../../../lib/text-field';
import { login } from '../auth-api';
import { completeSignIn } from '../session-store';
import { SsoButton } from './sso-button';

const REQUIRED = 'Required';

type FieldErrors = { email?: string; password?: string };

type LoginFormProps = {
  prompt: string;
  onEmailVerifyRequired: () => void;
};

// Success needs no callback: the session store changes and the router moves
// the now signed-in user on from the login page.
export function LoginForm({ prompt, onEmailVerifyRequired }: LoginFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const errors: FieldErrors = {};
    if (email.trim() === '') errors.email = REQUIRED;
    if (password === '') errors.password = REQUIRED;
    setFieldErrors(errors);
    setError(undefined);
    if (errors.email || errors.password) return;

    setSubmitting(true);
    const outcome = await login(email.trim(), password);
    if (outcome.kind === 'email-verify-required') {
      setSubmitting(false);
      onEmailVerifyRequired();
      return;
    }
    if (outcome.kind === 'error') {
      setSubmitting(false);
      setError(outcome.message);
      return;
    }
    const signedIn = await completeSignIn();
    if (!signedIn.ok) {
      setSubmitting(false);
      setError(signedIn.message);
    }
  };

  return (
    <form className="card stack admin-login" noValidate onSubmit={submit} aria-labelledby="admin-login-title">
      <h1 id="admin-login-title" tabIndex={-1}>Admin Control Panel</h1>
      <p className="muted">{prompt}</p>
      <ErrorBanner message={error} />
      <TextField
        id="email"
        label="Email Address"
        type="email"
        value={email}
        onChange={setEmail}
        error={fieldErrors.email}
        autoComplete="username"
      />
      <TextField
        id="password"
        label="Password"
        type="password"
        value={password}
        onChange={setPassword}
        error={fieldErrors.password}
        autoComplete="current-password"
      />
      <p className="admin-login__link admin-login__forgot">
        <Link to={FORGOT_PASSWORD_PATH}>Forgot Password</Link>
      </p>
      <button type="submit" className="button button--block" disabled={submitting}>
        {submitting ? 'Logging in…' : 'Login'}
      </button>
      <SsoButton onError={setError} />
    </form>
  );
}
