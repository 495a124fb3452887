import { useState } from 'react';
import { EmailVerifyRequired } from './email-verify-required';
import { useDocumentTitle } from '../../../ui/document-title';
import { LoginForm } from './login-form';

type LoginPageProps = {
  // True when the visitor was sent here from a page that needs a session.
  bounced: boolean;
  /** A fixed message from the console itself ('Password has been updated successfully'), never text from the address. */
  notice?: string | undefined;
};

export function LoginPage({ bounced, notice }: LoginPageProps) {
  const [verifyRequired, setVerifyRequired] = useState(false);
  useDocumentTitle([verifyRequired ? 'Email Verification Required' : 'Login']);
  const prompt = bounced ? 'You must login to view this page' : 'Please enter your login details';

  return (
    <main className="container container--narrow admin-login-page">
      {notice && (
        <p className="alert admin-login" role="status" style={{ marginBottom: 'var(--space-4)' }}>
          {notice}
        </p>
      )}
      {verifyRequired ? (
        <EmailVerifyRequired onReturn={() => setVerifyRequired(false)} />
      ) : (
        <LoginForm prompt={prompt} onEmailVerifyRequired={() => setVerifyRequired(true)} />
      )}
    </main>
  );
}
