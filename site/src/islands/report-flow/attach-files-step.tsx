import { useRef, useState, type Dispatch, type DragEvent, type FormEvent, type SetStateAction } from 'react';
import { formatFileSize } from '../../lib/format';
import { RichText } from '../../forms/rich-text';
import { acceptFiles, allowedTypes, MAX_ATTACHMENTS, uploadAttachment, type AttachmentEntry } from './attachment-upload';
import type { Translatable } from '../../forms/translated-text';
import type { ReporterForm } from './report-data';
import { FlowError, StepActions } from './step-actions';
import { cannotBeCleaned, UNCLEANABLE_EXTENSIONS } from '../../../../api/shared/uncleanable-files';

/** Said before the report is sent, while the reporter can still delete the file (docs/decisions/048-clean-files.md). */
export const DETAILS_KEPT_WARNING = 'Its details, such as the author, could not be removed: this file may carry your name. Delete it, or attach it as a PDF or a newer Office file (.docx, .xlsx, .pptx), whose details are removed.';

type AttachFilesStepProps = {
  form: ReporterForm & Translatable;
  attachments: readonly AttachmentEntry[];
  setAttachments: Dispatch<SetStateAction<AttachmentEntry[]>>;
  flowError: string | undefined;
  busy: boolean;
  onBack: () => void;
  onNext: () => void;
};

let nextKey = 0;

export function AttachFilesStep({ form, attachments, setAttachments, flowError, busy, onBack, onNext }: AttachFilesStepProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const types = allowedTypes(form.allowedFileTypes);
  const uploading = attachments.some((entry) => entry.status === 'uploading');

  const update = (key: string, change: Partial<AttachmentEntry>) =>
    setAttachments((list) => list.map((entry) => (entry.key === key ? { ...entry, ...change } : entry)));

  // Each file starts uploading as soon as it is chosen; the list lives in the
  // flow, so going Back while files upload loses nothing.
  const addFiles = (chosen: File[]) => {
    const { accepted, problems: refused } = acceptFiles(chosen, attachments, types);
    setProblems(refused);
    const entries = accepted.map((file) => ({ file, entry: { key: `file-${nextKey++}`, name: file.name, size: file.size, status: 'uploading' as const, progress: 0 } }));
    setAttachments((list) => [...list, ...entries.map(({ entry }) => entry)]);
    for (const { file, entry } of entries) {
      void uploadAttachment(file, (progress) => update(entry.key, { progress })).then((result) =>
        update(entry.key, result.ok ? { status: 'done', progress: 1, id: result.id, metadataRemoved: result.metadataRemoved } : { status: 'error', error: result.message }),
      );
    }
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    addFiles([...event.dataTransfer.files]);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!uploading) onNext();
  };

  return (
    <form className="report-step stack" noValidate onSubmit={submit} aria-labelledby="report-step-title">
      <h1 id="report-step-title" tabIndex={-1}>Attach files</h1>
      <RichText html={form.uploadFilesMessage} {...form.translatedIn} />
      <FlowError message={flowError} />
      <div
        className={`upload-zone${dragging ? ' upload-zone--active' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p className="upload-zone__text">
          Drag and drop files here, or{' '}
          <button type="button" className="upload-zone__link" onClick={() => inputRef.current?.click()}>
            choose files
          </button>
        </p>
        <p className="upload-zone__hint">
          Up to <em className="upload-zone__emphasis">{MAX_ATTACHMENTS} files</em>, 25 MB in total. Allowed types: {types.join(' ')}
        </p>
        {types.some((type) => UNCLEANABLE_EXTENSIONS.includes(type.slice(1))) && (
          <p className="upload-zone__hint">Details such as the author's name are removed from pictures, PDFs and newer Office files before they are stored; old Office files ({UNCLEANABLE_EXTENSIONS.map((type) => `.${type}`).join(', ')}) keep theirs.</p>
        )}
        <input
          ref={inputRef}
          type="file"
          multiple
          hidden
          accept={types.join(',')}
          onChange={(event) => {
            addFiles([...(event.target.files ?? [])]);
            // Choosing the same file again must fire another change.
            event.target.value = '';
          }}
        />
        <button type="button" className="button upload-zone__button" onClick={() => inputRef.current?.click()}>
          Attach files
        </button>
      </div>
      {problems.length > 0 && (
        // The alert role goes on a wrapper: on the list itself it would take away the list's meaning.
        <div className="alert alert--error upload-problems" role="alert">
          <ul className="upload-problems__list">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
      {attachments.length > 0 && (
        <ul className="upload-list" aria-label="Attached files">
          {attachments.map((entry) => (
            <AttachmentRow key={entry.key} entry={entry} onDelete={() => setAttachments((list) => list.filter((item) => item.key !== entry.key))} />
          ))}
        </ul>
      )}
      {uploading && <p className="muted">Files are still uploading. Uploads cannot be cancelled once started.</p>}
      <StepActions busy={busy} onBack={onBack} nextDisabled={uploading} />
    </form>
  );
}

function AttachmentRow({ entry, onDelete }: { entry: AttachmentEntry; onDelete: () => void }) {
  const percent = Math.round(entry.progress * 100);
  return (
    <li className={`upload-list__item upload-list__item--${entry.status}`}>
      <svg className="upload-list__icon" viewBox="0 0 16 20" aria-hidden="true">
        <path d="M1 1h9l5 5v13H1z M10 1v5h5" />
      </svg>
      <span className="upload-list__name">{entry.name}</span>
      <span className="upload-list__size">{formatFileSize(entry.size)}</span>
      {entry.status === 'uploading' && (
        <progress className="upload-list__progress" max={100} value={percent} aria-label={`Uploading ${entry.name}`}>
          {percent}%
        </progress>
      )}
      {entry.status === 'error' && <span className="upload-list__error">{entry.error}</span>}
      {entry.status !== 'error' && (entry.metadataRemoved === false || cannotBeCleaned(entry.name)) && (
        <span className="upload-list__warning" role="status">
          {DETAILS_KEPT_WARNING}
        </span>
      )}
      {entry.status !== 'uploading' && (
        <button type="button" className="upload-list__delete" onClick={onDelete}>
          Delete<span className="visually-hidden"> {entry.name}</span>
        </button>
      )}
    </li>
  );
}
