import { useState } from 'react';
import { startSsoSignIn } from '../sso-api';

type SsoButtonProps = {
  /** Shows why the sign-in could not start, in the login form's own error banner. */
  onError: (message: string | undefined) => void;
};

export function SsoButton({ onError }: SsoButtonProps) {
  const [starting, setStarting] = useState(false);

  const start = async () => {
    if (starting) return;
    setStarting(true);
    onError(undefined);
    const outcome = await startSsoSignIn();
    if (!outcome.ok) {
      setStarting(false);
      onError(outcome.message);
      return;
    }
    // A full navigation: the provider's pages are not ours, and it sends the browser back to /login-ms/callback.
    window.location.assign(outcome.url);
  };

  return (
    <button type="button" className="button button--secondary button--block" disabled={starting} onClick={() => void start()}>
      {starting ? 'Redirecting…' : 'Sign in With Microsoft Account'}
    </button>
  );
}
