import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { TextField } from '../../../lib/text-field';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { notify } from '../../ui/notice-store';
import { AvatarField } from './avatar-field';
import { ProofDialog, proofRefusal, type AccountProof } from '../../ui/proof-dialog';
import { TwoFactorSetting } from './two-factor-setting';
import { CHANGE_DETAILS_MUTATION, emailLinkSent, fieldProblems, PENDING_EMAIL_QUERY, PROFILE_UPDATED, REQUIRED, type Profile } from './settings-api';

type Errors = { firstName?: string; lastName?: string; email?: string };

type ProfileFormProps = {
  profile: Profile;
  /** The top bar and the rest of the shell show the new name at once. */
  onSaved: () => void;
};

export function ProfileForm({ profile, onSaved }: ProfileFormProps) {
  const [firstName, setFirstName] = useState(profile.firstName);
  const [lastName, setLastName] = useState(profile.lastName);
  const [email, setEmail] = useState(profile.email);
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [pendingResult] = useQuery<{ viewer: { pendingEmail: string | null } | null }>({ query: PENDING_EMAIL_QUERY });
  const [savedPending, setPendingEmail] = useState<string | null>();
  const pendingEmail = savedPending === undefined ? pendingResult.data?.viewer?.pendingEmail : savedPending;
  /** A new address asks for the password first (decision 061); names alone do not. */
  const [askingProof, setAskingProof] = useState(false);
  const [, changeDetails] = useMutation(CHANGE_DETAILS_MUTATION);
  const emailChanged = !profile.isSSO && email.trim().toLowerCase() !== profile.email.toLowerCase();

  /** Saves; answers the failure so the proof dialog can show it, or shows it on the form. */
  const save = async (proof?: AccountProof) => {
    // A single-sign-on account's email is its Microsoft account's; it is not sent.
    const input = profile.isSSO ? { firstName, lastName } : { firstName, lastName, email, ...proof };
    const result = await changeDetails({ input });
    if (result.error) return result.error;
    const saved = (result.data as { changeDetails?: Profile & { pendingEmail: string | null } } | undefined)?.changeDetails;
    if (saved) {
      setFirstName(saved.firstName);
      setLastName(saved.lastName);
      setEmail(saved.email);
      setPendingEmail(saved.pendingEmail);
    }
    notify(saved?.pendingEmail && emailChanged ? emailLinkSent(saved.pendingEmail) : PROFILE_UPDATED);
    onSaved();
    return undefined;
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const next: Errors = {};
    if (firstName.trim() === '') next.firstName = REQUIRED;
    if (lastName.trim() === '') next.lastName = REQUIRED;
    if (email.trim() === '') next.email = REQUIRED;
    setErrors(next);
    setError(undefined);
    if (next.firstName || next.lastName || next.email) return;
    if (emailChanged) return setAskingProof(true);
    setSaving(true);
    const failed = await save();
    setSaving(false);
    if (failed) {
      const problems = fieldProblems(failed);
      setErrors({ firstName: problems.firstName, lastName: problems.lastName, email: problems.email });
      setError(errorMessage(failed));
    }
  };

  const saveWithProof = async (proof: AccountProof) => {
    const failed = await save(proof);
    return failed ? proofRefusal(failed) : undefined;
  };

  return (
    <section className="card stack settings-card" aria-labelledby="settings-profile-title">
      <h2 id="settings-profile-title" className="card__title">
        Profile
      </h2>
      <AvatarField profile={profile} />
      <form className="stack" noValidate onSubmit={submit}>
        <ErrorBanner message={error} />
        <div className="settings-names">
          <TextField id="firstName" label="First Name" value={firstName} onChange={setFirstName} error={errors.firstName} autoComplete="given-name" />
          <TextField id="lastName" label="Last Name" value={lastName} onChange={setLastName} error={errors.lastName} autoComplete="family-name" />
        </div>
        {profile.isSSO ? (
          <div className="field">
            <span className="field__label">Email Address</span>
            <span>{profile.email}</span>
            <span className="muted">Your email address comes from your Microsoft account.</span>
          </div>
        ) : (
          <TextField id="email" label="Email Address" type="email" value={email} onChange={setEmail} error={errors.email} autoComplete="email" />
        )}
        {pendingEmail && <p className="muted">{`Waiting for confirmation: ${pendingEmail}. Open the link sent there to make it your email address.`}</p>}
        <div className="actions">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
      <TwoFactorSetting profile={profile} onChanged={onSaved} />
      {askingProof && (
        <ProofDialog
          title="Change Email Address"
          intro={`A confirmation link will be sent to ${email.trim()}. Your email address changes when you open it; until then, sign-in and mail stay with ${profile.email}.`}
          submitLabel="Send Link"
          account={profile}
          onSubmit={saveWithProof}
          onClose={() => setAskingProof(false)}
        />
      )}
    </section>
  );
}
