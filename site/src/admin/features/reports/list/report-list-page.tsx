import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorCode, errorMessage } from '../../../ui/errors';
import { MissingScreen } from '../../../ui/missing-screen';
import { notify } from '../../../ui/notice-store';
import { Pagination } from '../../../ui/pagination';
import { useDocumentTitle } from '../../../ui/document-title';
import { useLastPageGuard, useListAddress } from '../../../ui/use-list-address';
import { reportListPath, tagsPath } from '../../../paths';
import { can, isSuperAdmin, type Viewer } from '../../../viewer';
import { ARCHIVE_MUTATION, HARD_DELETE_MUTATION, LIST_QUERY, TAG_QUERY, TAGS_QUERY, UNARCHIVE_MUTATION, type ReportRow, type Tag } from '../reports-api';
import { PAGE_SIZE, readParams, writeParams } from './list-params';
import { ExportButtons } from './export-buttons';
import { ReportListControls } from './report-list-controls';
import { ReportTable } from './report-table';
import './report-list.css';

type ReportListPageProps = {
  viewer: Viewer;
  organisationID?: string | undefined;
  /** The /tags/reports/:tagID variant: one tag's reports. */
  tagID?: string | undefined;
};

type Pending = { kind: 'archive' | 'unarchive' | 'hard delete'; report: ReportRow };

const DONE = { archive: 'Successfully archived report', unarchive: 'Successfully unarchived report', 'hard delete': 'Successfully hard deleted report' } as const;

export function ReportListPage({ viewer, organisationID, tagID }: ReportListPageProps) {
  const { params, searchText, setSearchText, update } = useListAddress(readParams, writeParams);
  const [pending, setPending] = useState<Pending>();
  const [exportError, setExportError] = useState<string>();

  const tagIDs = tagID ? [tagID] : params.tagID ? [params.tagID] : null;
  const variables = useMemo(
    () => ({
      search: { text: params.search || null, filter: params.filter, sortBy: params.sortBy, sortDir: params.sortDir, organisationID: organisationID ?? null, tagIDs },
      limit: PAGE_SIZE,
      offset: (params.page - 1) * PAGE_SIZE,
    }),
    [params.search, params.filter, params.sortBy, params.sortDir, params.page, organisationID, tagIDs?.[0]],
  );
  const [list, refetch] = useQuery<{ reportSubmissions: { total: number; list: ReportRow[] } }>({ query: LIST_QUERY, variables });
  const mayListTags = can(viewer, 'TagList');
  const [tags] = useQuery<{ tags: { list: Tag[] } }>({ query: TAGS_QUERY, variables: { organisationID: organisationID ?? null }, pause: !mayListTags || tagID !== undefined });
  const [tag] = useQuery<{ tagGet: { id: string; name: string } }>({ query: TAG_QUERY, variables: { id: tagID ?? '' }, pause: tagID === undefined });
  const [, archive] = useMutation(ARCHIVE_MUTATION);
  const [, unarchive] = useMutation(UNARCHIVE_MUTATION);
  const [, hardDelete] = useMutation(HARD_DELETE_MUTATION);

  const total = list.data?.reportSubmissions.total ?? 0;
  const rows = list.data?.reportSubmissions.list;
  useLastPageGuard(rows, total, params.page, PAGE_SIZE, update);

  const runPending = async (): Promise<string | undefined> => {
    if (!pending) return undefined;
    const run = { archive, unarchive, 'hard delete': hardDelete }[pending.kind];
    const result = await run({ id: pending.report.id });
    if (result.error) return errorMessage(result.error);
    notify(DONE[pending.kind]);
    refetch({ requestPolicy: 'network-only' });
    return undefined;
  };

  const title = tagID ? (tag.data ? `Reports tagged ${tag.data.tagGet.name}` : 'Reports') : 'Reports';
  useDocumentTitle([title]);
  // A tag's address that names no tag this viewer reaches (spec §8 'Tag not found').
  if (tagID && errorCode(tag.error) === 'NOT_FOUND') {
    return (
      <main className="admin-page">
        <MissingScreen message={errorMessage(tag.error) ?? ''} returnTo={can(viewer, 'TagCreate') ? tagsPath(organisationID) : reportListPath(organisationID)} />
      </main>
    );
  }
  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>{title}</h1>
        <ExportButtons viewer={viewer} search={variables.search} onError={setExportError} />
      </div>
      <ErrorBanner message={errorMessage(tag.error) ?? errorMessage(list.error) ?? exportError} />
      <ReportListControls
        params={params}
        searchText={searchText}
        onSearchText={setSearchText}
        onChange={(change) => update(change)}
        tags={mayListTags && !tagID ? (tags.data?.tags.list ?? []) : undefined}
      />
      <section className="card card--flush" aria-busy={list.fetching} aria-label="Reports">
        {rows === undefined ? (
          <p className="muted card__body">{list.fetching ? 'Loading…' : ''}</p>
        ) : rows.length === 0 ? (
          <p className="muted card__body">No reports found</p>
        ) : (
          <ReportTable
            reports={rows}
            canView={!isSuperAdmin(viewer)}
            canArchive={can(viewer, 'ReportSubmissionArchive')}
            canUnarchive={can(viewer, 'ReportSubmissionUnarchive')}
            canHardDelete={can(viewer, 'ReportSubmissionHardDelete')}
            organisationID={organisationID}
            onArchive={(report) => setPending({ kind: 'archive', report })}
            onUnarchive={(report) => setPending({ kind: 'unarchive', report })}
            onHardDelete={(report) => setPending({ kind: 'hard delete', report })}
          />
        )}
      </section>
      <Pagination page={params.page} pageSize={PAGE_SIZE} total={total} onPage={(page) => update({ page })} label="Report pages" />
      {pending && <ConfirmDialog action={pending.kind} name="report" onConfirm={runPending} onClose={() => setPending(undefined)} />}
    </main>
  );
}
