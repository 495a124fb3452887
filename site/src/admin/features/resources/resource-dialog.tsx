import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { TextField } from '../../../lib/text-field';
import { formatFileSize } from '../../../lib/format';
import { Dialog } from '../../ui/dialog';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage, fieldProblems } from '../../ui/errors';
import { notify } from '../../ui/notice-store';
import { DOCUMENT_ACCEPT, DOCUMENT_TYPES_TEXT, documentFileProblem, MUTATIONS, videoUrlProblem, type DocumentRow, type ResourceKind, type VideoRow } from './resources-api';

type Props = {
  kind: ResourceKind;
  /** The resource being edited; none when adding one. */
  editing?: VideoRow | DocumentRow | undefined;
  onClose: () => void;
  onSaved: () => void;
};

type Problems = { title?: string; description?: string; videoSrc?: string; file?: string };

const NAMES: Record<ResourceKind, string> = { video: 'Video', document: 'Document' };

/**
 * Add or edit a help video or document (spec §5: title, description and video URL are 'Required';
 * a document's file is required when adding it and optional on edit, which keeps the current one).
 */
export function ResourceDialog({ kind, editing, onClose, onSaved }: Props) {
  const [title, setTitle] = useState(editing?.title ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [videoSrc, setVideoSrc] = useState(editing && 'videoSrc' in editing ? editing.videoSrc : '');
  const [file, setFile] = useState<File>();
  const [problems, setProblems] = useState<Problems>({});
  const [error, setError] = useState<string>();
  const mutations = MUTATIONS[kind];
  const [{ fetching }, save] = useMutation(editing ? mutations.update : mutations.create);
  const currentFile = editing && 'blob' in editing ? editing.blob : null;
  const name = NAMES[kind];

  const check = (): Problems => {
    const found: Problems = {};
    if (!title.trim()) found.title = 'Required';
    if (!description.trim()) found.description = 'Required';
    if (kind === 'video') found.videoSrc = videoSrc.trim() ? videoUrlProblem(videoSrc.trim()) : 'Required';
    if (kind === 'document') found.file = file ? documentFileProblem(file) : editing ? undefined : 'Required';
    return Object.fromEntries(Object.entries(found).filter(([, value]) => value)) as Problems;
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const found = check();
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setError(undefined);
    const text = { title: title.trim(), description: description.trim() };
    const input = kind === 'video' ? { ...text, videoSrc: videoSrc.trim() } : { ...text, ...(file ? { file } : {}) };
    const result = await save(editing ? { id: editing.id, input } : { input });
    if (result.error) {
      setProblems(fieldProblems(result.error) as Problems);
      return setError(errorMessage(result.error));
    }
    notify(`Successfully ${editing ? 'updated' : 'created'} ${kind}`);
    onSaved();
    onClose();
  };

  const onChoose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    setFile(chosen);
    setProblems((current) => ({ ...current, file: chosen ? documentFileProblem(chosen) : undefined }));
  };

  const formId = `resource-${kind}-form`;
  return (
    <Dialog
      title={`${editing ? 'Edit' : 'Add'} ${name}`}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose} disabled={fetching}>
            Cancel
          </button>
          <button type="submit" form={formId} className="button" disabled={fetching}>
            {fetching ? 'Saving…' : 'Save'}
          </button>
        </>
      }
    >
      <ErrorBanner message={error} />
      <form id={formId} className="stack" noValidate onSubmit={(event) => void submit(event)}>
        <TextField id={`${formId}-title`} label="Title" value={title} onChange={setTitle} error={problems.title} />
        <div className="field">
          <label className="field__label" htmlFor={`${formId}-description`}>
            Description
          </label>
          <textarea
            id={`${formId}-description`}
            className="field__input"
            rows={3}
            value={description}
            aria-invalid={problems.description ? true : undefined}
            aria-describedby={problems.description ? `${formId}-description-error` : undefined}
            onChange={(event) => setDescription(event.target.value)}
          />
          {problems.description && (
            <p className="field__error" id={`${formId}-description-error`}>
              {problems.description}
            </p>
          )}
        </div>
        {kind === 'video' ? (
          <TextField id={`${formId}-url`} label="Video URL" value={videoSrc} onChange={setVideoSrc} error={problems.videoSrc} />
        ) : (
          <div className="field">
            <label className="field__label" htmlFor={`${formId}-file`}>
              File
            </label>
            {currentFile && (
              <p className="muted">
                Current file: {currentFile.fileName} ({formatFileSize(currentFile.fileSizeBytes)}). Choose a new file only to replace it.
              </p>
            )}
            <input
              id={`${formId}-file`}
              className="field__input"
              type="file"
              accept={DOCUMENT_ACCEPT}
              aria-invalid={problems.file ? true : undefined}
              aria-describedby={`${formId}-file-hint${problems.file ? ` ${formId}-file-error` : ''}`}
              onChange={onChoose}
            />
            <p className="muted" id={`${formId}-file-hint`}>
              {DOCUMENT_TYPES_TEXT}
            </p>
            {problems.file && (
              <p className="field__error" id={`${formId}-file-error`}>
                {problems.file}
              </p>
            )}
          </div>
        )}
      </form>
    </Dialog>
  );
}
