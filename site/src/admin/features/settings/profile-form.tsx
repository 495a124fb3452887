import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { TextField } from '../../../lib/text-field';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { notify } from '../../ui/notice-store';
import { AvatarField } from './avatar-field';
import { TwoFactorSetting } from './two-factor-setting';
import { CHANGE_DETAILS_MUTATION, fieldProblems, PROFILE_UPDATED, REQUIRED, type Profile } from './settings-api';

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
  const [, changeDetails] = useMutation(CHANGE_DETAILS_MUTATION);

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
    setSaving(true);
    // A single-sign-on account's email is its Microsoft account's; it is not sent.
    const input = profile.isSSO ? { firstName, lastName } : { firstName, lastName, email };
    const result = await changeDetails({ input });
    setSaving(false);
    if (result.error) {
      const problems = fieldProblems(result.error);
      setErrors({ firstName: problems.firstName, lastName: problems.lastName, email: problems.email });
      return setError(errorMessage(result.error));
    }
    const saved = (result.data as { changeDetails?: Profile } | undefined)?.changeDetails;
    if (saved) {
      setFirstName(saved.firstName);
      setLastName(saved.lastName);
      setEmail(saved.email);
    }
    notify(PROFILE_UPDATED);
    onSaved();
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
        <div className="actions">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
      <TwoFactorSetting activated={profile.twoFactorAuthenticationActivated} onChanged={onSaved} />
    </section>
  );
}
