import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { TextField } from '../../../lib/text-field';
import { Dialog } from '../../ui/dialog';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { notify } from '../../ui/notice-store';
import { CREATE_MUTATION, createdOrUpdated } from './organisations-api';

type Props = { onClose: () => void; onCreated: () => void };

/** The create modal (spec §2 Organisations): organisation name and ABN, both 'Required'. */
export function OrganisationCreateDialog({ onClose, onCreated }: Props) {
  const [name, setName] = useState('');
  const [abn, setAbn] = useState('');
  const [errors, setErrors] = useState<{ name?: string; abn?: string }>({});
  const [error, setError] = useState<string>();
  const [{ fetching }, create] = useMutation<{ organisationCreate: { id: string; name: string } }>(CREATE_MUTATION);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const problems = { ...(name.trim() ? {} : { name: 'Required' }), ...(abn.trim() ? {} : { abn: 'Required' }) };
    setErrors(problems);
    if (problems.name || problems.abn) return;
    setError(undefined);
    const result = await create({ input: { name: name.trim(), abn: abn.trim() } });
    if (result.error || !result.data) return setError(errorMessage(result.error));
    notify(createdOrUpdated(result.data.organisationCreate.name));
    onCreated();
    onClose();
  };

  return (
    <Dialog
      title="Create Organisation"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose} disabled={fetching}>
            Cancel
          </button>
          <button type="submit" form="organisation-create-form" className="button" disabled={fetching}>
            {fetching ? 'Creating…' : 'Create'}
          </button>
        </>
      }
    >
      <ErrorBanner message={error} />
      <form id="organisation-create-form" className="stack" noValidate onSubmit={(event) => void submit(event)}>
        <TextField id="organisation-name" label="Organisation Name" value={name} onChange={setName} error={errors.name} autoComplete="organization" />
        <TextField id="organisation-abn" label="ABN" value={abn} onChange={setAbn} error={errors.abn} />
      </form>
    </Dialog>
  );
}
