import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { TextField } from '../../../lib/text-field';
import { Dialog } from '../../ui/dialog';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { CREATE_MUTATION, UPDATE_MUTATION, type TagRow } from './tags-api';
import { DialogFormActions } from '../../ui/dialog-form';

type TagNameDialogProps = {
  /** The tag to rename; without one, a new tag. */
  tag?: TagRow | undefined;
  /** The organisation a super admin is working inside; others create in their own. */
  organisationID?: string | undefined;
  onSaved: (name: string) => void;
  onClose: () => void;
};

/** Create Tag and Edit Tag: one name, 'Required' (spec §5); the server's refusals show at the top. */
export function TagNameDialog({ tag, organisationID, onSaved, onClose }: TagNameDialogProps) {
  const [name, setName] = useState(tag?.name ?? '');
  const [required, setRequired] = useState(false);
  const [error, setError] = useState<string>();
  const [creating, create] = useMutation<{ tagCreate: TagRow }>(CREATE_MUTATION);
  const [updating, update] = useMutation<{ tagUpdate: TagRow }>(UPDATE_MUTATION);
  const busy = creating.fetching || updating.fetching;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const trimmed = name.trim();
    setRequired(trimmed === '');
    setError(undefined);
    if (trimmed === '') return;
    const result = tag ? await update({ id: tag.id, newName: trimmed }) : await create({ organisationID: organisationID ?? null, name: trimmed });
    const saved = result.data && ('tagUpdate' in result.data ? result.data.tagUpdate : result.data.tagCreate);
    if (!saved) {
      setError(errorMessage(result.error));
      return;
    }
    onSaved(saved.name);
    onClose();
  };

  return (
    <Dialog title={tag ? 'Edit Tag' : 'Create Tag'} onClose={onClose}>
      <form className="stack" noValidate onSubmit={(event) => void submit(event)}>
        <ErrorBanner message={error} />
        <TextField id="tag-name" label="Name" value={name} onChange={setName} error={required ? 'Required' : undefined} />
        <DialogFormActions busy={busy} submitLabel='Save' busyLabel='Saving…' onCancel={onClose} />
      </form>
    </Dialog>
  );
}
