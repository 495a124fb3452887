import { useEffect, useRef, useState } from 'react';
import { useDocumentTitle } from '../../../ui/document-title';
import { navigate } from '../../../router';
import { verifyLoginLink } from '../auth-api';
import { completeSignIn } from '../session-store';

export const LOGIN_LINK_FAILED = 'Login link has expired or is invalid, please try again.';

type LoginVerifyPageProps = { email: string; token: string };

// /admin/login-verify?email=&token= (spec §2): the magic link signs in once, then the dashboard.
export function LoginVerifyPage({ email, token }: LoginVerifyPageProps) {
  const [failed, setFailed] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const sent = useRef(false);
  useDocumentTitle([failed ? 'Login Failed' : 'Logging in']);

  useEffect(() => {
    // Once: the link is spent by the first request, a second would fail.
    if (sent.current) return;
    sent.current = true;
    void (async () => {
      const outcome = await verifyLoginLink(email, token);
      if (outcome.ok) {
        navigate('/admin/dashboard', { replace: true });
        const signedIn = await completeSignIn();
        if (signedIn.ok) return;
      }
      setFailed(true);
    })();
  }, [email, token]);

  useEffect(() => {
    if (failed) headingRef.current?.focus();
  }, [failed]);

  return (
    <main className="container container--narrow admin-login-page">
      <div className="card stack admin-login">
        {failed ? (
          <>
            <h1 ref={headingRef} tabIndex={-1}>
              Login Failed
            </h1>
            <p>{LOGIN_LINK_FAILED}</p>
            <button type="button" className="button button--block" onClick={() => navigate('/admin', { replace: true })}>
              Return back to Login
            </button>
          </>
        ) : (
          <p className="muted" role="status">
            Logging in…
          </p>
        )}
      </div>
    </main>
  );
}
