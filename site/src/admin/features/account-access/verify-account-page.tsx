import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ACCOUNT_VERIFIED, VERIFY_TOKEN_REQUIRED } from '../../../../../api/shared/messages';
import { TextField } from '../../../lib/text-field';
import { navigate } from '../../router';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { notify } from '../../ui/notice-store';
import { homePathFor, type Viewer } from '../../viewer';
import { $verifyReturnPath, resendVerification, verifyAccount } from './account-access-api';

const LOGIN_PATH = '/admin';
const RESENT = 'A new verification email has been sent. Please check your inbox.';

type VerifyAccountPageProps = {
  /** The code from the mailed link (/admin/verify/:code): it is sent at once. */
  code?: string | undefined;
  /** The signed-in user, or null for a visitor who opened the mailed link signed out. */
  viewer: Viewer | null;
  /** Loads the viewer again, so the banner goes. */
  onVerified: () => Promise<void>;
};

/**
 * /admin/verify and /admin/verify/:code (spec §2): the Verification Code from the mail, or the
 * link that carries it. Signed in, the console then returns to where the user was (else home);
 * signed out, the page says so and offers the login.
 */
export function VerifyAccountPage({ code, viewer, onVerified }: VerifyAccountPageProps) {
  useDocumentTitle(['Verify Account']);
  const [value, setValue] = useState(code ?? '');
  const [fieldError, setFieldError] = useState<string>();
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState<string>();
  const [busy, setBusy] = useState<'verifying' | 'resending'>();
  const [verified, setVerified] = useState(false);
  const autoSent = useRef(false);

  const verify = async (token: string) => {
    if (busy) return;
    if (token.trim() === '') return setFieldError(VERIFY_TOKEN_REQUIRED);
    setFieldError(undefined);
    setError(undefined);
    setStatus(undefined);
    setBusy('verifying');
    const outcome = await verifyAccount(token.trim());
    setBusy(undefined);
    if (!outcome.ok) return setError(outcome.message);
    if (!viewer) return setVerified(true);
    await onVerified();
    notify(ACCOUNT_VERIFIED);
    const back = $verifyReturnPath.get();
    $verifyReturnPath.set(undefined);
    navigate(back ?? homePathFor(viewer), { replace: true });
  };

  useEffect(() => {
    if (code && !autoSent.current) {
      autoSent.current = true;
      void verify(code);
    }
    // Only the code the page was opened with is sent by itself, and only once.
  }, [code]);

  const resend = async () => {
    if (busy) return;
    // Signed out there is no account to send to: signing in comes first.
    if (!viewer) return navigate(LOGIN_PATH);
    setError(undefined);
    setStatus(undefined);
    setBusy('resending');
    const outcome = await resendVerification(viewer.email);
    setBusy(undefined);
    if (outcome.ok) setStatus(RESENT);
    else setError(outcome.message);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void verify(value);
  };

  // Signed out after a code worked, or signed in with nothing left to verify.
  const done = verified || (viewer?.verified === true && !code);
  const card = done ? (
    <div className="card stack admin-login">
      <h1 tabIndex={-1}>Verify Account</h1>
      <p className="alert" role="status">
        {ACCOUNT_VERIFIED}
      </p>
      <button type="button" className="button button--block" onClick={() => navigate(viewer ? homePathFor(viewer) : LOGIN_PATH)}>
        {viewer ? 'Continue' : 'Login'}
      </button>
    </div>
  ) : (
    <form className="card stack admin-login" noValidate onSubmit={submit} aria-labelledby="verify-account-title">
      <h1 id="verify-account-title" tabIndex={-1}>
        Verify Account
      </h1>
      <p className="muted">Enter the Verification Code from the email we sent you, or open the link in it.</p>
      <ErrorBanner message={error} />
      {status && (
        <p className="alert" role="status">
          {status}
        </p>
      )}
      <TextField id="verificationCode" label="Verification Code" value={value} onChange={setValue} error={fieldError} />
      <button type="submit" className="button button--block" disabled={busy !== undefined}>
        {busy === 'verifying' ? 'Verifying...' : 'Verify'}
      </button>
      <button type="button" className="button button--secondary button--block" onClick={() => void resend()} disabled={busy !== undefined}>
        {busy === 'resending' ? 'Resending email...' : 'Click here to resend'}
      </button>
    </form>
  );

  return <main className={viewer ? 'admin-page' : 'container container--narrow admin-login-page'}>{card}</main>;
}
