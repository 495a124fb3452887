import { formatFileSize } from '../../lib/format';
import { sameOriginImageUrl } from '../organisation-display';
import type { ReporterSubmission } from './area-api';

export function UploadsTab({ attachments }: { attachments: ReporterSubmission['attachments'] }) {
  return (
    <section className="stack" aria-labelledby="uploads-title">
      <h2 id="uploads-title">Uploads</h2>
      {attachments.length === 0 ? (
        <p className="muted">No uploads found</p>
      ) : (
        <ul className="upload-list">
          {attachments.map((attachment) => {
            // Only our own origin: a download link elsewhere would tell a third party about the reporter.
            const url = sameOriginImageUrl(attachment.fileURL, window.location.origin);
            return (
              <li key={attachment.id} className="upload-list__item">
                <span className="upload-list__name">{attachment.fileName}</span>
                <span className="upload-list__size">{formatFileSize(attachment.fileSizeBytes)}</span>
                {url && (
                  <a className="button button--small button--secondary" href={url} download={attachment.fileName}>
                    Download<span className="visually-hidden"> {attachment.fileName}</span>
                  </a>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
