import { useEffect, useState } from 'react';
import { ALMOST_DONE, CONFIRMATION_SENT } from '../../../../../api/shared/messages';
import { navigate } from '../../router';
import { useDocumentTitle } from '../../ui/document-title';
import { checkCompleted, type StartAnswer } from './onboarding-api';

/** How often the page asks whether the link was followed (in this or another tab or device). */
const CHECK_INTERVAL_MS = 10_000;

/** 'Almost done...' (spec §2): the mail is on its way; the details can still be changed. */
export function AlmostDone({ answer, onChangeDetails }: { answer: StartAnswer; onChangeDetails: () => void }) {
  useDocumentTitle([ALMOST_DONE]);
  const [completed, setCompleted] = useState(false);

  useEffect(() => {
    const timer = window.setInterval(() => {
      void checkCompleted(answer.prospectID).then((outcome) => {
        if (outcome.ok && outcome.data.isCompleted) {
          setCompleted(true);
          window.clearInterval(timer);
        }
      });
    }, CHECK_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [answer.prospectID]);

  return (
    <main className="container container--narrow admin-login-page">
      <section className="card stack admin-login" aria-labelledby="almost-done-title">
        <h1 id="almost-done-title" tabIndex={-1}>
          {ALMOST_DONE}
        </h1>
        <p role="status">{CONFIRMATION_SENT}</p>
        <p className="muted">
          Sent to <strong>{answer.email}</strong>. Open the link in this browser to finish signing up.
        </p>
        {completed ? (
          <button type="button" className="button button--block" onClick={() => navigate('/admin')}>
            Sign up complete: Login
          </button>
        ) : (
          <button type="button" className="button button--secondary button--block" onClick={onChangeDetails}>
            Change details
          </button>
        )}
      </section>
    </main>
  );
}
