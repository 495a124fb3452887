import { useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { TextField } from '../../../lib/text-field';
import { Dialog } from '../../ui/dialog';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import type { Viewer } from '../../viewer';
import { CREATE_MUTATION, ROLES_QUERY, invitableRoles, type InviteCreateData, type RoleOption } from './invites-api';
import { DialogFormActions, requiredErrors } from '../../ui/dialog-form';

type InviteUserDialogProps = {
  viewer: Viewer;
  /** The organisation a super admin is working inside; others invite to their own. */
  organisationID?: string | undefined;
  /** After the server created the invite; `hasEmailSent` false when its mail could not be sent. */
  onCreated: (email: string, hasEmailSent: boolean) => void;
  onClose: () => void;
};

type Fields = { firstName: string; lastName: string; email: string; roleID: string };
type FieldErrors = Partial<Record<keyof Fields, string>>;

const EMPTY: Fields = { firstName: '', lastName: '', email: '', roleID: '' };


/** The Invite User modal: First Name, Last Name, Email and Role, each 'Required' (spec §2, §5). */
export function InviteUserDialog({ viewer, organisationID, onCreated, onClose }: InviteUserDialogProps) {
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [roles] = useQuery<{ roles: RoleOption[] }>({ query: ROLES_QUERY });
  const [creating, create] = useMutation<InviteCreateData>(CREATE_MUTATION);
  const [error, setError] = useState<string>();
  const options = useMemo(() => invitableRoles(roles.data?.roles ?? [], viewer.role.name), [roles.data, viewer.role.name]);
  const set = (key: keyof Fields) => (value: string) => setFields((current) => ({ ...current, [key]: value }));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (creating.fetching) return;
    const problems = requiredErrors(fields);
    setErrors(problems);
    setError(undefined);
    if (Object.keys(problems).length > 0) return;
    const input = { firstName: fields.firstName.trim(), lastName: fields.lastName.trim(), email: fields.email.trim(), roleID: fields.roleID };
    const result = await create({ organisationID: organisationID ?? null, input });
    const created = result.data?.onboardInviteCreate;
    if (!created) {
      setError(errorMessage(result.error));
      return;
    }
    onCreated(created.invite.email, created.hasEmailSent);
    onClose();
  };

  const roleError = errors.roleID;
  return (
    <Dialog title="Invite User" onClose={onClose}>
      <form className="stack" noValidate onSubmit={(event) => void submit(event)}>
        <ErrorBanner message={error ?? errorMessage(roles.error)} />
        <TextField id="invite-first-name" label="First Name" value={fields.firstName} onChange={set('firstName')} error={errors.firstName} />
        <TextField id="invite-last-name" label="Last Name" value={fields.lastName} onChange={set('lastName')} error={errors.lastName} />
        <TextField id="invite-email" label="Email" type="email" value={fields.email} onChange={set('email')} error={errors.email} />
        <div className="field">
          <label className="field__label" htmlFor="invite-role">
            Role
          </label>
          <select
            id="invite-role"
            className="field__input"
            value={fields.roleID}
            onChange={(event) => set('roleID')(event.target.value)}
            aria-invalid={roleError ? true : undefined}
            aria-describedby={roleError ? 'invite-role-error' : undefined}
          >
            <option value="">Select a role</option>
            {options.map((role) => (
              <option key={role.id} value={role.id}>
                {role.label}
              </option>
            ))}
          </select>
          {roleError && (
            <p className="field__error" id="invite-role-error">
              {roleError}
            </p>
          )}
        </div>
        <DialogFormActions busy={creating.fetching} submitLabel='Invite' busyLabel='Inviting…' onCancel={onClose} />
      </form>
    </Dialog>
  );
}
