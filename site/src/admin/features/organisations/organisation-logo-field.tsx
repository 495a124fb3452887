import { useRef, useState, type ChangeEvent } from 'react';
import { useMutation } from 'urql';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { notify } from '../../ui/notice-store';
import { LOGO_EXTENSIONS, logoFileProblem, ORGANISATION_UPDATED, UPDATE_LOGO_MUTATION, UPDATE_MUTATION, UPLOAD_FAILED, type OrganisationDetail } from './organisations-api';

type Props = { organisation: OrganisationDetail; width: number; padding: number };

/** The logo: uploaded as soon as it is chosen (jpg or png under 10,000,000 bytes), or removed ('-'). */
export function OrganisationLogoField({ organisation, width, padding }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [, upload] = useMutation(UPDATE_LOGO_MUTATION);
  const [, update] = useMutation(UPDATE_MUTATION);

  const onChoose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || busy) return;
    const problem = logoFileProblem(file);
    if (problem) return setError(problem);
    setError(undefined);
    setBusy(true);
    const result = await upload({ id: organisation.id, file });
    setBusy(false);
    if (result.error) return setError(`${UPLOAD_FAILED}: ${errorMessage(result.error)}`);
    notify(ORGANISATION_UPDATED);
  };

  const onRemove = async () => {
    setError(undefined);
    setBusy(true);
    const result = await update({ id: organisation.id, input: { logoBlobID: '-' } });
    setBusy(false);
    if (result.error) return setError(errorMessage(result.error));
    notify(ORGANISATION_UPDATED);
  };

  return (
    <div className="stack">
      <span className="field__label">Logo</span>
      {organisation.logo ? (
        <img className="organisation-logo-preview" src={organisation.logo.fileURL} alt={`${organisation.name} logo`} style={{ width, padding }} />
      ) : (
        <p className="muted">No logo yet.</p>
      )}
      <ErrorBanner message={error} />
      <div className="actions">
        <input ref={input} className="organisation-logo-field__input" type="file" tabIndex={-1} aria-label="Logo file" accept={LOGO_EXTENSIONS.join(',')} onChange={(event) => void onChoose(event)} />
        <button type="button" className="button button--secondary button--small" disabled={busy} onClick={() => input.current?.click()}>
          {busy ? 'Saving…' : organisation.logo ? 'Change Logo' : 'Upload Logo'}
        </button>
        {organisation.logo && (
          <button type="button" className="button button--secondary button--small" disabled={busy} onClick={() => void onRemove()}>
            Remove Logo
          </button>
        )}
      </div>
      <p className="muted">A .jpg or .png file under 10,000,000 bytes.</p>
    </div>
  );
}
