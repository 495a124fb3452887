import { useEffect, useRef, useState } from 'react';
import { WRONG_SSO_ACCOUNT } from '../../../../../api/shared/messages';
import { FALLBACK_ERROR_MESSAGE, postJson } from '../../../lib/http';
import { navigate } from '../../router';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { AlmostDone } from './almost-done';
import type { StartAnswer } from './onboarding-api';
import { SSO_ONBOARDING_KEY as KEY, type PendingSsoOnboarding as Pending } from './sso-marker';

// The onboarding leg of 'Sign in With Microsoft Account' (decision 036). The invite page keeps what
// was typed for the one round trip through the provider; the callback page finds it and, instead of
// signing in, posts onboard_start with the provider's code.

/** To the provider; `chooseAccount` asks it to offer another account than the one it remembers. */
export async function startSsoOnboarding(pending: Pending, chooseAccount: boolean): Promise<string | undefined> {
  const result = await postJson('/api/auth/login_sso/start', {});
  const url = result.ok ? (result.data as { url?: unknown }).url : undefined;
  if (typeof url !== 'string') return result.ok ? FALLBACK_ERROR_MESSAGE : result.message;
  window.sessionStorage.setItem(KEY, JSON.stringify(pending));
  const address = new URL(url);
  // 'login' makes the provider ask again whoever it remembers (Entra ID and every OpenID provider support it).
  if (chooseAccount) address.searchParams.set('prompt', 'login');
  window.location.assign(address.href);
  return undefined;
}

type Stage = { kind: 'sending' } | { kind: 'done'; answer: StartAnswer } | { kind: 'failed'; message: string };

/** /login-ms/callback while an invite waits for its Microsoft account. */
export function SsoOnboardingCallback({ search, pending }: { search: string; pending: Pending }) {
  useDocumentTitle(['1. Sign Up']);
  const [stage, setStage] = useState<Stage>({ kind: 'sending' });
  const [restarting, setRestarting] = useState(false);
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    window.sessionStorage.removeItem(KEY);
    // The code works once; it leaves the address bar and the history at once.
    window.history.replaceState(window.history.state, '', '/login-ms/callback');
    const params = new URLSearchParams(search);
    const code = params.get('code');
    const state = params.get('state');
    if (!code || !state) return setStage({ kind: 'failed', message: WRONG_SSO_ACCOUNT });
    const body = { ...pending, organisationName: '', organisationABN: '', password: '', ssoToken: code, ssoState: state, verifyToken: '' };
    void postJson('/api/auth/onboard_start', body).then((result) =>
      setStage(result.ok ? { kind: 'done', answer: result.data as StartAnswer } : { kind: 'failed', message: result.message || FALLBACK_ERROR_MESSAGE }),
    );
  }, [search, pending]);

  if (stage.kind === 'done') return <AlmostDone answer={stage.answer} onChangeDetails={() => navigate(`/onboarding/${encodeURIComponent(pending.inviteToken)}`)} />;

  const changeAccounts = async () => {
    setRestarting(true);
    const problem = await startSsoOnboarding(pending, true);
    if (problem) {
      setRestarting(false);
      setStage({ kind: 'failed', message: problem });
    }
  };

  return (
    <main className="container container--narrow admin-login-page">
      <section className="card stack admin-login" aria-labelledby="sso-onboarding-title" aria-busy={stage.kind === 'sending'}>
        <h1 id="sso-onboarding-title" tabIndex={-1}>
          1. Sign Up
        </h1>
        {stage.kind === 'sending' && (
          <p className="muted" role="status">
            Checking your Microsoft account…
          </p>
        )}
        {stage.kind === 'failed' && (
          <>
            <ErrorBanner message={stage.message} />
            <button type="button" className="button button--block" disabled={restarting} onClick={() => void changeAccounts()}>
              {restarting ? 'Redirecting…' : 'Change accounts'}
            </button>
            <button type="button" className="button button--secondary button--block" onClick={() => navigate(`/onboarding/${encodeURIComponent(pending.inviteToken)}`)}>
              Go Back
            </button>
          </>
        )}
      </section>
    </main>
  );
}
