import { useEffect, useRef, useState } from 'react';
import { useDocumentTitle } from '../../../ui/document-title';
import { completeSignIn } from '../session-store';
import { finishSsoSignIn } from '../sso-api';

/** Where the provider sends the browser back (spec §2: a top-level path, not under /admin). */
export const SSO_CALLBACK_PATH = '/login-ms/callback';

/** The provider's own answer when no code came back (the person cancelled, or it refused). */
const PROVIDER_REFUSED = 'The Microsoft sign-in was cancelled or refused. Please try again.';

type Outcome = { kind: 'working' } | { kind: 'failed'; message: string };

type SsoCallbackPageProps = {
  /** The address's query string as the provider sent it (code and state, or error). */
  search: string;
  onReturn: () => void;
};

/**
 * /login-ms/callback: posts the provider's code and state to POST /api/auth/login_sso. Success needs
 * no step here: the session store changes and the router takes the signed-in user home.
 */
export function SsoCallbackPage({ search, onReturn }: SsoCallbackPageProps) {
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'working' });
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Read once: the address is cleaned below, and a re-render must not post the code twice.
  const params = useRef(new URLSearchParams(search)).current;
  useDocumentTitle([outcome.kind === 'failed' ? 'Login Failed' : 'Signing in']);

  const posted = useRef(false);

  useEffect(() => {
    // The code is single-use: one post per visit, whatever re-renders.
    if (posted.current) return;
    posted.current = true;
    // Nor has it any business in the history or a bookmark.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    const code = params.get('code');
    const state = params.get('state');
    if (!code || !state) {
      setOutcome({ kind: 'failed', message: PROVIDER_REFUSED });
      return;
    }
    void (async () => {
      const finished = await finishSsoSignIn(code, state);
      const signedIn = finished.ok ? await completeSignIn() : finished;
      if (!signedIn.ok) setOutcome({ kind: 'failed', message: signedIn.message });
    })();
  }, [params]);

  useEffect(() => {
    if (outcome.kind === 'failed') headingRef.current?.focus();
  }, [outcome.kind]);

  return (
    <main className="container container--narrow admin-login-page">
      {outcome.kind === 'working' ? (
        <div className="card stack admin-login" role="status">
          <p>Signing in with your Microsoft account…</p>
        </div>
      ) : (
        <div className="card stack admin-login">
          <h1 ref={headingRef} tabIndex={-1}>
            Login Failed
          </h1>
          <p className="alert alert--error" role="alert">
            {outcome.message}
          </p>
          <button type="button" className="button button--block" onClick={onReturn}>
            Return back to Login
          </button>
        </div>
      )}
    </main>
  );
}
