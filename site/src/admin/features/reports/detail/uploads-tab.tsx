import { useQuery } from 'urql';
import { formatFileSize } from '../../../../lib/format';
import { Badge } from '../../../ui/badges';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorMessage } from '../../../ui/errors';
import { ATTACHMENTS_QUERY, type Attachment, type ReportDetail } from './detail-api';

/** Files from the server are downloaded from our own origin only; anything else is not linked. */
const sameOrigin = (url: string) => url.startsWith('/') && !url.startsWith('//');

export function UploadsTab({ report }: { report: ReportDetail }) {
  const [result] = useQuery<{ reportSubmissionGet: { attachments: Attachment[] } }>({ query: ATTACHMENTS_QUERY, variables: { id: report.id } });
  const files = result.data?.reportSubmissionGet.attachments;
  return (
    <section className="card stack" aria-labelledby="uploads-title">
      <h2 id="uploads-title" className="card__title">
        Uploads
      </h2>
      <p className="alert alert--warning" role="note">
        These files were uploaded by the reporter and have not been checked for viruses. They could contain malicious content: only open them
        on a device with up-to-date security software, and never enable macros or run programs they contain.
      </p>
      <ErrorBanner message={errorMessage(result.error)} />
      {files === undefined && !result.error && <p className="muted">Loading…</p>}
      {files?.length === 0 && <p className="muted">No uploads found</p>}
      {files && files.length > 0 && (
        <ul className="file-list">
          {files.map((file) => (
            <li key={file.id} className="file-list__item">
              <span className="file-list__name">{file.fileName}</span>
              <span className="muted file-list__meta">{`${formatFileSize(file.fileSizeBytes)} · ${file.mimeType}`}</span>
              {file.metadataRemoved ? (
                <Badge tone="positive">Metadata removed</Badge>
              ) : (
                <Badge tone="warning">Metadata not removed – may identify the reporter</Badge>
              )}
              {sameOrigin(file.fileURL) && (
                <a className="button button--small button--secondary" href={file.fileURL} download={file.fileName}>
                  Download
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
