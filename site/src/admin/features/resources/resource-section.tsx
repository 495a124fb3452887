import { useEffect, useMemo, useState } from 'react';
import { useQuery } from 'urql';
import type { ListFilter } from '../../../../../api/shared/enums';
import { formatDateTime, formatFileSize } from '../../../lib/format';
import { ActionsHeader } from '../../ui/actions-header';
import { ArchiveToggle } from '../../ui/archive-toggle';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { Pagination } from '../../ui/pagination';
import { isWebAddress } from '../../../../../api/shared/web-address';
import { DOCUMENTS_QUERY, VIDEOS_QUERY, type DocumentRow, type ResourceKind, type VideoRow } from './resources-api';

const PAGE_SIZE = 20;

type Row = VideoRow | DocumentRow;
export type RowAction = { action: 'edit' | 'archive' | 'unarchive'; kind: ResourceKind; row: Row };

type Props = {
  kind: ResourceKind;
  heading: string;
  search: string;
  filter: ListFilter;
  manage: boolean;
  /** Bumped after a change, so the list asks the server again. */
  version: number;
  onAction: (action: RowAction) => void;
};

/** A video is only ever a link that opens elsewhere, never an embedded player (decision 039). */
function VideoLink({ video }: { video: VideoRow }) {
  if (!isWebAddress(video.videoSrc)) return <span className="muted">Link unavailable</span>;
  return (
    <a href={video.videoSrc} target="_blank" rel="noopener noreferrer">
      Watch video<span className="visually-hidden">: {video.title} (opens in a new tab)</span>
    </a>
  );
}

function DocumentLink({ document }: { document: DocumentRow }) {
  if (!document.blob) return <span className="muted">No file</span>;
  return (
    <>
      <a href={document.blob.fileURL} download={document.blob.fileName}>
        Download<span className="visually-hidden">: {document.title}</span>
      </a>
      <span className="muted resource-file">
        {document.blob.fileName} ({formatFileSize(document.blob.fileSizeBytes)})
      </span>
    </>
  );
}

/** One list of the Resources screen (spec §9: date, text, link), 20 a page. */
export function ResourceSection({ kind, heading, search, filter, manage, version, onAction }: Props) {
  const [page, setPage] = useState(1);
  const variables = useMemo(() => ({ search: search || null, filter, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }), [search, filter, page]);
  const [list, refetch] = useQuery<{ resourceVideos?: { total: number; list: VideoRow[] }; resourceDocuments?: { total: number; list: DocumentRow[] } }>({
    query: kind === 'video' ? VIDEOS_QUERY : DOCUMENTS_QUERY,
    variables,
    requestPolicy: 'cache-and-network',
  });
  useEffect(() => {
    if (version > 0) refetch({ requestPolicy: 'network-only' });
  }, [version, refetch]);
  const data = kind === 'video' ? list.data?.resourceVideos : list.data?.resourceDocuments;
  const rows: Row[] | undefined = data?.list;
  const headingId = `resources-${kind}-heading`;

  return (
    <section className="stack" aria-labelledby={headingId}>
      <h2 id={headingId} className="card__title">
        {heading}
      </h2>
      <ErrorBanner message={errorMessage(list.error)} />
      <div className="card card--flush" aria-busy={list.fetching}>
        {rows === undefined ? (
          <p className="muted card__body">{list.fetching ? 'Loading…' : ''}</p>
        ) : rows.length === 0 ? (
          <p className="muted card__body">No {kind === 'video' ? 'videos' : 'documents'} found</p>
        ) : (
          <div className="table-scroll">
            <table className="table table--cards">
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">{kind === 'video' ? 'Video' : 'Document'}</th>
                  <th scope="col">Link</th>
                  {manage && <ActionsHeader />}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id}>
                    <td data-label="Date">{formatDateTime(row.createdAt) ?? ''}</td>
                    <td data-label={kind === 'video' ? 'Video' : 'Document'}>
                      <strong>{row.title}</strong>
                      {row.archived && <span className="muted"> Archived</span>}
                      <p className="resource-description">{row.description}</p>
                    </td>
                    <td data-label="Link">{'videoSrc' in row ? <VideoLink video={row} /> : <DocumentLink document={row} />}</td>
                    {manage && (
                      <td className="table__actions">
                        <div className="row-actions">
                          {!row.archived && (
                            <button type="button" className="button button--small button--secondary" onClick={() => onAction({ action: 'edit', kind, row })}>
                              Edit<span className="visually-hidden"> {row.title}</span>
                            </button>
                          )}
                          <ArchiveToggle archived={row.archived} onChoose={(action) => onAction({ action, kind, row })} />
                        </div>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
      <Pagination page={page} pageSize={PAGE_SIZE} total={data?.total ?? 0} onPage={setPage} label={`${heading} pages`} />
    </section>
  );
}
