import { useEffect, useState, type FormEvent } from 'react';
import { INVALID_INVITE } from '../../../../../api/shared/messages';
import { passwordProblem } from '../../../../../api/shared/password-rule';
import { roleLabel } from '../../../../../api/shared/roles';
import type { RoleName } from '../../../../../api/shared/enums';
import { StrengthBar } from '../../../lib/strength-bar';
import { TextField } from '../../../lib/text-field';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { AlmostDone } from './almost-done';
import { formatPrice, loadInvite, loadPlan, startOnboarding, type Invite, type Plan, type StartAnswer } from './onboarding-api';
import { PAYMENTS_OFF_NOTE } from './plan-summary';

const REQUIRED = 'Required';

type Kind = { kind: 'invite'; token: string } | { kind: 'sign-up'; productID?: string | undefined };
type Loaded = { status: 'loading' } | { status: 'invalid'; message: string } | { status: 'ready'; invite: Invite | null; plan: Plan | null };

type Fields = { firstName: string; lastName: string; email: string; organisationName: string; organisationABN: string; password: string };
const EMPTY: Fields = { firstName: '', lastName: '', email: '', organisationName: '', organisationABN: '', password: '' };

function problemsOf(fields: Fields, invite: Invite | null, editing: boolean): Partial<Record<keyof Fields, string>> {
  const problems: Partial<Record<keyof Fields, string>> = {};
  for (const key of ['firstName', 'lastName', 'email'] as const) if (!fields[key].trim()) problems[key] = REQUIRED;
  if (!invite) for (const key of ['organisationName', 'organisationABN'] as const) if (!fields[key].trim()) problems[key] = REQUIRED;
  // An existing onboarding keeps its password when the field is left blank (spec §5).
  if (!invite?.enableSSO && !(editing && fields.password === '')) {
    const problem = fields.password === '' ? REQUIRED : passwordProblem(fields.password);
    if (problem) problems.password = problem;
  }
  return problems;
}

/**
 * /onboarding/:inviteToken and /onboarding/sign-up[/:productID] (spec §2, §5): '1. Sign Up' (or '2. Sign
 * Up' after choosing a plan), then 'Almost done...'. An invite locks the email and shows the role.
 */
export function SignUpPage(props: Kind) {
  const heading = props.kind === 'sign-up' && props.productID ? '2. Sign Up' : '1. Sign Up';
  useDocumentTitle([heading]);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [problems, setProblems] = useState<Partial<Record<keyof Fields, string>>>({});
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [answer, setAnswer] = useState<StartAnswer>();
  const [editing, setEditing] = useState(false);
  const token = props.kind === 'invite' ? props.token : undefined;
  const productID = props.kind === 'sign-up' ? props.productID : undefined;

  useEffect(() => {
    let current = true;
    const load = async (): Promise<Loaded> => {
      if (token !== undefined) {
        const invite = await loadInvite(token);
        if (!invite.ok) return { status: 'invalid', message: invite.message === INVALID_INVITE ? INVALID_INVITE : invite.message };
        return { status: 'ready', invite: invite.data, plan: null };
      }
      if (!productID) return { status: 'ready', invite: null, plan: null };
      const plan = await loadPlan(productID);
      if (!plan.ok) return { status: 'invalid', message: plan.message };
      return plan.data ? { status: 'ready', invite: null, plan: plan.data } : { status: 'invalid', message: 'This plan is no longer offered. Please choose another.' };
    };
    void load().then((state) => {
      if (!current) return;
      setLoaded(state);
      if (state.status === 'ready' && state.invite) setFields((f) => ({ ...f, firstName: state.invite!.firstName, lastName: state.invite!.lastName, email: state.invite!.email }));
    });
    return () => {
      current = false;
    };
  }, [token, productID]);

  // A field's message goes once it is edited; the next submit checks everything again.
  const set = (key: keyof Fields) => (value: string) => {
    setFields((f) => ({ ...f, [key]: value }));
    setProblems(({ [key]: _edited, ...rest }) => rest);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving || loaded.status !== 'ready') return;
    const found = problemsOf(fields, loaded.invite, editing);
    setProblems(found);
    setError(undefined);
    if (Object.keys(found).length) return;
    setSaving(true);
    if (token !== undefined && loaded.invite?.enableSSO) {
      // The provider's round trip: the callback page posts onboard_start with its code (sso-onboarding.tsx).
      const { startSsoOnboarding } = await import('./sso-onboarding');
      const problem = await startSsoOnboarding({ inviteToken: token, email: loaded.invite.email, firstName: fields.firstName, lastName: fields.lastName }, false);
      setSaving(false);
      return setError(problem);
    }
    const body = token !== undefined ? { ...fields, organisationName: '', organisationABN: '', inviteToken: token } : { ...fields, productPlanID: productID ?? '' };
    const outcome = await startOnboarding(body);
    setSaving(false);
    if (!outcome.ok) return setError(outcome.message);
    setFields((f) => ({ ...f, password: '' }));
    setAnswer(outcome.data);
  };

  if (answer) {
    return (
      <AlmostDone
        answer={answer}
        onChangeDetails={() => {
          setEditing(true);
          setAnswer(undefined);
        }}
      />
    );
  }

  const invite = loaded.status === 'ready' ? loaded.invite : null;
  const plan = loaded.status === 'ready' ? loaded.plan : null;
  return (
    <main className="container container--narrow admin-login-page">
      <form className="card stack admin-login" noValidate onSubmit={submit} aria-labelledby="sign-up-title" aria-busy={loaded.status === 'loading'}>
        <h1 id="sign-up-title" tabIndex={-1}>
          {heading}
        </h1>
        {loaded.status === 'loading' && (
          <p className="muted" role="status">
            Loading…
          </p>
        )}
        {loaded.status === 'invalid' && <ErrorBanner message={loaded.message} />}
        {loaded.status === 'ready' && (
          <>
            {invite && (
              <p>
                You have been invited to join <strong>{invite.organisationName}</strong>.
              </p>
            )}
            {plan && (
              <p>
                Plan: <strong>{plan.name}</strong>, {plan.seats} seats, {formatPrice(plan.price)}.{!plan.available && ` ${PAYMENTS_OFF_NOTE}`}
              </p>
            )}
            <ErrorBanner message={error} />
            <TextField id="firstName" label="First Name" value={fields.firstName} onChange={set('firstName')} error={problems.firstName} autoComplete="given-name" />
            <TextField id="lastName" label="Last Name" value={fields.lastName} onChange={set('lastName')} error={problems.lastName} autoComplete="family-name" />
            {invite ? (
              <>
                <ReadOnlyField id="email" label="Email Address" value={invite.email} />
                <ReadOnlyField id="role" label="Role" value={roleLabel(invite.roleName as RoleName)} />
              </>
            ) : (
              <>
                <TextField id="email" label="Email Address" type="email" value={fields.email} onChange={set('email')} error={problems.email} autoComplete="email" />
                <TextField id="organisationName" label="Organisation Name" value={fields.organisationName} onChange={set('organisationName')} error={problems.organisationName} autoComplete="organization" />
                <TextField id="organisationABN" label="ABN" value={fields.organisationABN} onChange={set('organisationABN')} error={problems.organisationABN} />
              </>
            )}
            {invite?.enableSSO ? (
              <p className="muted">Your organisation signs in with Microsoft accounts: no password is needed. Sign in with the Microsoft account of {invite.email}.</p>
            ) : (
              <>
                <TextField id="password" label="Password" type="password" value={fields.password} onChange={set('password')} error={problems.password} autoComplete="new-password" />
                <StrengthBar password={fields.password} />
                <p className="muted">At least 8 characters, with at least 1 letter and 1 number.{editing && ' Leave it blank to keep the password you chose before.'}</p>
              </>
            )}
            {invite?.enableSSO ? (
              <button type="submit" className="button button--block" disabled={saving}>
                {saving ? 'Redirecting…' : 'Sign in With Microsoft Account'}
              </button>
            ) : (
              <button type="submit" className="button button--block" disabled={saving}>
                {saving ? 'Signing up…' : 'Sign Up'}
              </button>
            )}
          </>
        )}
      </form>
    </main>
  );
}

function ReadOnlyField({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input id={id} name={id} className="field__input" type="text" value={value} readOnly aria-readonly="true" />
    </div>
  );
}
