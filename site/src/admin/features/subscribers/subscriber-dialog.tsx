import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { TextField } from '../../../lib/text-field';
import { Dialog } from '../../ui/dialog';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage, fieldProblems } from '../../ui/errors';
import { CREATE_MUTATION, type SubscriberCreateData } from './subscribers-api';
import { DialogFormActions, requiredErrors } from '../../ui/dialog-form';

type SubscriberDialogProps = {
  /** The organisation a super admin is working inside; others add their own organisation's. */
  organisationID?: string | undefined;
  onCreated: () => void;
  onClose: () => void;
};

type Fields = { firstName: string; lastName: string; email: string };
type FieldErrors = Partial<Record<keyof Fields, string>>;

const EMPTY: Fields = { firstName: '', lastName: '', email: '' };


/** Add Subscriber: first name, last name and email, each 'Required'; the email input is of type email (spec §5). */
export function SubscriberDialog({ organisationID, onCreated, onClose }: SubscriberDialogProps) {
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string>();
  const [creating, create] = useMutation<SubscriberCreateData>(CREATE_MUTATION);
  const set = (key: keyof Fields) => (value: string) => setFields((current) => ({ ...current, [key]: value }));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (creating.fetching) return;
    const problems = requiredErrors(fields);
    setErrors(problems);
    setError(undefined);
    if (Object.keys(problems).length > 0) return;
    const input = { firstName: fields.firstName.trim(), lastName: fields.lastName.trim(), email: fields.email.trim() };
    const result = await create({ organisationID: organisationID ?? null, input });
    if (!result.data?.organisationEmailSubscriberCreate) {
      setErrors(fieldProblems(result.error) as FieldErrors);
      setError(errorMessage(result.error));
      return;
    }
    onCreated();
    onClose();
  };

  return (
    <Dialog title="Add Subscriber" onClose={onClose}>
      <form className="stack" noValidate onSubmit={(event) => void submit(event)}>
        <ErrorBanner message={error} />
        <TextField id="subscriber-first-name" label="First Name" value={fields.firstName} onChange={set('firstName')} error={errors.firstName} />
        <TextField id="subscriber-last-name" label="Last Name" value={fields.lastName} onChange={set('lastName')} error={errors.lastName} />
        <TextField id="subscriber-email" label="Email" type="email" value={fields.email} onChange={set('email')} error={errors.email} />
        <DialogFormActions busy={creating.fetching} submitLabel='Save' busyLabel='Saving…' onCancel={onClose} />
      </form>
    </Dialog>
  );
}
