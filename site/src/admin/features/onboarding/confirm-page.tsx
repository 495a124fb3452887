import { useEffect, useState, type FormEvent } from 'react';
import { TextField } from '../../../lib/text-field';
import { navigate } from '../../router';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { finishOnboarding, loadProspect, type Prospect } from './onboarding-api';
import { PlanSummary } from './plan-summary';

const PASSWORD_TO_FINISH = 'Please enter the password you chose when you signed up.';
const DASHBOARD = '/admin/dashboard';

type Stage = { kind: 'loading' } | { kind: 'invalid'; message: string } | { kind: 'ready'; prospect: Prospect };

/**
 * /verify/:code (spec §2; decision 036): the mailed confirmation link. Following it is what verifies
 * the address; Finish makes the account (and the organisation for a sign-up) and signs it in.
 */
export function ConfirmSignUpPage({ code, onSignedIn }: { code: string; onSignedIn: () => Promise<{ ok: boolean }> }) {
  useDocumentTitle(['Confirm Sign Up']);
  const [stage, setStage] = useState<Stage>({ kind: 'loading' });
  const [couponCode, setCouponCode] = useState('');
  const [password, setPassword] = useState('');
  const [askPassword, setAskPassword] = useState(false);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let current = true;
    void loadProspect(code).then((outcome) => current && setStage(outcome.ok ? { kind: 'ready', prospect: outcome.data } : { kind: 'invalid', message: outcome.message }));
    return () => {
      current = false;
    };
  }, [code]);

  const finish = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving || stage.kind !== 'ready') return;
    setError(undefined);
    setSaving(true);
    const outcome = await finishOnboarding({ prospectID: stage.prospect.id, token: code, cardToken: '', couponCode, password });
    if (!outcome.ok) {
      setSaving(false);
      // Opened in another browser than the one that signed up: the password proves it is the same person.
      if (outcome.message === PASSWORD_TO_FINISH) setAskPassword(true);
      return setError(outcome.message);
    }
    await onSignedIn();
    navigate(DASHBOARD, { replace: true });
  };

  const prospect = stage.kind === 'ready' ? stage.prospect : null;
  return (
    <main className="container container--narrow admin-login-page">
      <form className="card stack admin-login" noValidate onSubmit={finish} aria-labelledby="confirm-title" aria-busy={stage.kind === 'loading'}>
        <h1 id="confirm-title" tabIndex={-1}>
          Confirm Sign Up
        </h1>
        {stage.kind === 'loading' && (
          <p className="muted" role="status">
            Verifying…
          </p>
        )}
        {stage.kind === 'invalid' && <ErrorBanner message={stage.message} />}
        {prospect && (
          <>
            <p>
              Your email address <strong>{prospect.email}</strong> is confirmed.{' '}
              {prospect.type === 'Organisation' ? `Finish to create ${prospect.organisationName ?? 'your organisation'} and sign in.` : 'Finish to join your organisation and sign in.'}
            </p>
            {prospect.type === 'Organisation' && <PlanSummary plan={prospect.productPlan} paymentsEnabled={prospect.paymentsEnabled} onCoupon={setCouponCode} />}
            <ErrorBanner message={error} />
            {askPassword && <TextField id="password" label="Password" type="password" value={password} onChange={setPassword} autoComplete="current-password" />}
            <button type="submit" className="button button--block" disabled={saving}>
              {saving ? 'Finishing…' : 'Finish Sign Up'}
            </button>
          </>
        )}
        {stage.kind === 'invalid' && (
          <button type="button" className="button button--block" onClick={() => navigate('/admin')}>
            Go Back
          </button>
        )}
      </form>
    </main>
  );
}
