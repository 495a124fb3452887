import { useState } from 'react';
import { graphqlRequest } from '../../../lib/graphql';
import { navigate } from '../../router';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import type { Viewer } from '../../viewer';

const LOGIN_PATH = '/admin';

export type EmailChangeLink = 'confirm' | 'cancel';

const WORDS = {
  confirm: {
    title: 'Confirm Email Address',
    intro: 'Open your account with this email address from now on: sign-in, password resets and mail will use it.',
    button: 'Confirm Email Address',
    busy: 'Confirming…',
    done: 'Your email address has been changed. Sign in with it from now on.',
    mutation: 'mutation ConfirmEmailChange($token: String!) { confirmEmailChange(token: $token) }',
  },
  cancel: {
    title: 'Cancel Email Change',
    intro: 'Your account keeps its email address, and it is signed out everywhere. If you did not ask for the change, change your password after signing in.',
    button: 'Cancel the Change',
    busy: 'Cancelling…',
    done: 'The change was cancelled and your account was signed out everywhere.',
    mutation: 'mutation CancelEmailChange($token: String!) { cancelEmailChange(token: $token) }',
  },
} as const;

type EmailChangePageProps = {
  link: EmailChangeLink;
  token: string;
  viewer: Viewer | null;
  /** After a confirmation the viewer's address changed; after a cancellation its session has ended. */
  onDone: () => void;
};

/**
 * /admin/confirm-email/:token and /admin/cancel-email-change/:token (decision 061). Nothing happens
 * until the button is pressed: mail scanners open links by themselves, and must neither confirm nor
 * cancel a change.
 */
export function EmailChangePage({ link, token, viewer, onDone }: EmailChangePageProps) {
  const words = WORDS[link];
  useDocumentTitle([words.title]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState(false);

  const act = async () => {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    const result = await graphqlRequest(words.mutation, { token });
    setBusy(false);
    if (!result.ok) return setError(result.message);
    setDone(true);
    onDone();
  };

  return (
    <main className="container container--narrow admin-login-page">
      <div className="card stack admin-login">
        <h1 tabIndex={-1}>{words.title}</h1>
        {done ? (
          <>
            <p className="alert" role="status">
              {words.done}
            </p>
            <button type="button" className="button button--block" onClick={() => navigate(LOGIN_PATH)}>
              {viewer && link === 'confirm' ? 'Continue' : 'Login'}
            </button>
          </>
        ) : (
          <>
            <p className="muted">{words.intro}</p>
            <ErrorBanner message={error} />
            <button type="button" className="button button--block" disabled={busy} onClick={() => void act()}>
              {busy ? words.busy : words.button}
            </button>
          </>
        )}
      </div>
    </main>
  );
}
