import { useState, type FormEvent } from 'react';
import { FORGOT_PASSWORD_ANSWER } from '../../../../../api/shared/messages';
import { TextField } from '../../../lib/text-field';
import { useDocumentTitle } from '../../ui/document-title';
import { Link } from '../../ui/link';
import { requestPasswordReset } from './account-access-api';

const REQUIRED = 'Required';

/** /admin/forgot-password: one email field; afterwards always the same sentence, whether or not the address has an account. */
export function ForgotPasswordPage() {
  useDocumentTitle(['Forgot Password']);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    if (email.trim() === '') return setError(REQUIRED);
    setError(undefined);
    setSending(true);
    await requestPasswordReset(email.trim());
    setSending(false);
    setSent(true);
  };

  return (
    <main className="container container--narrow admin-login-page">
      <form className="card stack admin-login" noValidate onSubmit={submit} aria-labelledby="forgot-password-title">
        <h1 id="forgot-password-title" tabIndex={-1}>
          Forgot Password
        </h1>
        {sent ? (
          <p className="alert" role="status">
            {FORGOT_PASSWORD_ANSWER}
          </p>
        ) : (
          <p className="muted">Enter the email address of your account and we will send you a link to choose a new password.</p>
        )}
        <TextField id="email" label="Email Address" type="email" value={email} onChange={setEmail} error={error} autoComplete="username" />
        <button type="submit" className="button button--block" disabled={sending}>
          {sending ? 'Sending…' : 'Send Reset Link'}
        </button>
        <p className="admin-login__link">
          <Link to="/admin">Return back to Login</Link>
        </p>
      </form>
    </main>
  );
}
