import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { passwordProblem } from '../../../../../api/shared/password-rule';
import { StrengthBar } from '../../../lib/strength-bar';
import { TextField } from '../../../lib/text-field';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { notify } from '../../ui/notice-store';
import { ownProof, ownProofRefusal, ProofDialog, type AccountProof, type ProofRefusal } from '../../ui/proof-dialog';
import { SelectField } from '../../ui/select-field';
import { isSuperAdmin, type Viewer } from '../../viewer';
import { assignableRoles, fieldProblems, ORGANISATIONS_QUERY, REQUIRED, ROLES_QUERY, USER_CREATE, USER_UPDATE, USER_UPDATED, type EditableUser, type RoleOption } from './users-api';

type Values = { firstName: string; lastName: string; username: string; email: string; password: string; roleID: string; organisationID: string };
type Errors = Partial<Record<keyof Values, string>>;

type UserProfileFormProps = {
  viewer: Viewer;
  /** Absent: a new user. */
  user?: EditableUser;
  /** The organisation page the form is on, if any (a super admin inside one organisation). */
  organisationID?: string | undefined;
  onCreated: (id: string) => void;
};

const blank = (user: EditableUser | undefined): Values => ({
  firstName: user?.firstName ?? '',
  lastName: user?.lastName ?? '',
  username: user?.username ?? '',
  email: user?.email ?? '',
  password: '',
  roleID: user?.role.id ?? '',
  organisationID: user?.organisation?.id ?? '',
});

/** The Edit Profile tab, and the whole of Create User: names, email, role, organisation (spec §2, §5). */
export function UserProfileForm({ viewer, user, organisationID, onCreated }: UserProfileFormProps) {
  const [values, setValues] = useState<Values>(() => blank(user));
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  /** A new address for an existing account asks for the acting user's own password first (decision 061). */
  const [askingProof, setAskingProof] = useState(false);
  const [roles] = useQuery<{ roles: RoleOption[] }>({ query: ROLES_QUERY });
  // The organisation is chosen only by a super admin outside an organisation page (spec §5).
  const choosesOrganisation = isSuperAdmin(viewer) && !organisationID && !user;
  const [organisations] = useQuery<{ organisations: { list: { id: string; name: string }[] } }>({ query: ORGANISATIONS_QUERY, pause: !choosesOrganisation });
  const [, create] = useMutation(USER_CREATE);
  const [, update] = useMutation(USER_UPDATE);
  const self = user?.id === viewer.id;
  const organisationPage = Boolean(organisationID) || !isSuperAdmin(viewer);
  // Nobody becomes a super admin by an edit (decision 034): only a new account can be one.
  const roleOptions = assignableRoles(roles.data?.roles ?? [], viewer.role.name, organisationPage).filter((role) => !user || role.name !== 'SUPER_ADMIN');
  // One's own role is shown, never changed (spec §6).
  const roleChoices = self && user ? [{ value: user.role.id, label: user.role.label }] : [{ value: '', label: 'Select a role' }, ...roleOptions.map((role) => ({ value: role.id, label: role.label }))];
  const chosenRole = roles.data?.roles.find((role) => role.id === values.roleID)?.name;
  const needsOrganisation = choosesOrganisation && chosenRole !== undefined && chosenRole !== 'SUPER_ADMIN' && chosenRole !== 'GUEST_MEMBER';
  // A field's error goes as soon as it is changed; the others stay until the next save.
  const set = (key: keyof Values) => (value: string) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => (current[key] ? { ...current, [key]: undefined } : current));
  };

  const check = (): Errors => {
    const next: Errors = {};
    for (const key of ['firstName', 'lastName', 'email', 'roleID'] as const) if (values[key].trim() === '') next[key] = REQUIRED;
    if (!user) next.password = values.password === '' ? REQUIRED : (passwordProblem(values.password) ?? undefined);
    if (needsOrganisation && values.organisationID === '') next.organisationID = REQUIRED;
    return Object.fromEntries(Object.entries(next).filter(([, message]) => message)) as Errors;
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const next = check();
    setErrors(next);
    setError(undefined);
    if (Object.keys(next).length > 0) return;
    if (user && values.email.trim().toLowerCase() !== user.email.toLowerCase()) return setAskingProof(true);
    await save();
  };

  /** Saves the form; a refusal of the proof is answered to the dialog, anything else shows on the form. */
  const save = async (proof?: AccountProof): Promise<ProofRefusal | undefined> => {
    setSaving(true);
    const common = { firstName: values.firstName, lastName: values.lastName, username: values.username, email: values.email };
    const result = user
      ? await update({ id: user.id, input: { ...common, ...(self ? {} : { roleID: values.roleID }), ...(proof ? ownProof(proof) : {}) } })
      : await create({ input: { ...common, password: values.password, roleID: values.roleID, organisationID: organisationID ?? (needsOrganisation ? values.organisationID : null) } });
    setSaving(false);
    if (result.error) {
      const refusal = ownProofRefusal(result.error);
      if (proof && Object.keys(refusal.fields ?? {}).length > 0) return refusal;
      setAskingProof(false);
      setErrors(fieldProblems(result.error) as Errors);
      setError(errorMessage(result.error));
      return undefined;
    }
    if (user) {
      notify(proof ? `A confirmation link has been sent to ${values.email.trim()}. The email address changes when it is opened.` : USER_UPDATED);
      return undefined;
    }
    notify(`Successfully created user "${values.email.trim()}"`);
    onCreated((result.data as { userCreate: { id: string } }).userCreate.id);
    return undefined;
  };

  return (
    <>
      <form className="stack" noValidate onSubmit={submit}>
        <ErrorBanner message={error} />
        <div className="user-form__grid">
          <TextField id="firstName" label="First Name" value={values.firstName} onChange={set('firstName')} error={errors.firstName} />
          <TextField id="lastName" label="Last Name" value={values.lastName} onChange={set('lastName')} error={errors.lastName} />
          <TextField id="username" label="Username (optional)" value={values.username} onChange={set('username')} error={errors.username} />
          <TextField id="email" label="Email" type="email" value={values.email} onChange={set('email')} error={errors.email} />
        </div>
        {!user && (
          <>
            <TextField id="password" label="Password" type="password" value={values.password} onChange={set('password')} error={errors.password} autoComplete="new-password" />
            <StrengthBar password={values.password} />
            <p className="muted">At least 8 characters, with at least 1 letter and 1 number. The new user is sent an email to verify their address.</p>
          </>
        )}
        <div className="user-form__grid">
          <div>
            <SelectField id="roleID" label="Role" value={values.roleID} options={roleChoices} onChange={set('roleID')} className="" />
            {errors.roleID && <p className="field__error">{errors.roleID}</p>}
          </div>
          {needsOrganisation && (
            <div>
              <SelectField
                id="organisationID"
                label="Organisation"
                value={values.organisationID}
                options={[{ value: '', label: 'Select an organisation' }, ...(organisations.data?.organisations.list ?? []).map((org) => ({ value: org.id, label: org.name }))]}
                onChange={set('organisationID')}
                className=""
              />
              {errors.organisationID && <p className="field__error">{errors.organisationID}</p>}
            </div>
          )}
        </div>
        <div className="actions">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Saving…' : user ? 'Save' : 'Create User'}
          </button>
        </div>
      </form>
      {askingProof && user && (
        <ProofDialog
          title="Change Email Address"
          intro={`A confirmation link will be sent to ${values.email.trim()}. The email address changes when it is opened; until then, sign-in and mail stay with ${user.email}, which is told of the change.`}
          submitLabel="Send Link"
          account={viewer}
          onSubmit={save}
          onClose={() => setAskingProof(false)}
        />
      )}
    </>
  );
}
