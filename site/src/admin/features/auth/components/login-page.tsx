import { useState } from 'react';
import { EmailVerifyRequired } from './email-verify-required';
import { LoginForm } from './login-form';

type LoginPageProps = {
  // True when the visitor was sent here from a page that needs a session.
  bounced: boolean;
};

export function LoginPage({ bounced }: LoginPageProps) {
  const [verifyRequired, setVerifyRequired] = useState(false);
  const prompt = bounced ? 'You must login to view this page' : 'Please enter your login details';

  return (
    <main className="container container--narrow admin-login-page">
      {verifyRequired ? (
        <EmailVerifyRequired onReturn={() => setVerifyRequired(false)} />
      ) : (
        <LoginForm prompt={prompt} onEmailVerifyRequired={() => setVerifyRequired(true)} />
      )}
    </main>
  );
}
