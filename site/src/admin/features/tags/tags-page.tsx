import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { formatDateTime } from '../../../lib/format';
import { reportListPath } from '../../paths';
import { ActionsHeader } from '../../ui/actions-header';
import { ListCard } from '../../ui/list-card';
import { ArchiveToggle } from '../../ui/archive-toggle';
import { Badge } from '../../ui/badges';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { readFilterListParams, writeFilterListParams, type FilterListParams } from '../../ui/filter-list-params';
import { Link } from '../../ui/link';
import { FilterListControls } from '../../ui/list-controls';
import { notify } from '../../ui/notice-store';
import { Pagination } from '../../ui/pagination';
import { useLastPageGuard, useListAddress } from '../../ui/use-list-address';
import { can, type Viewer } from '../../viewer';
import { TagNameDialog } from './tag-name-dialog';
import { ARCHIVE_MUTATION, CANNOT_DELETE, CANNOT_EDIT, TAGS_QUERY, UNARCHIVE_MUTATION, type TagListData, type TagRow } from './tags-api';

const PAGE_SIZE = 20;

type TagsPageProps = {
  viewer: Viewer;
  /** The organisation a super admin is working inside (the /organisations variant). */
  organisationID?: string | undefined;
};

type Pending = { action: 'archive' | 'unarchive'; tag: TagRow };
/** The open name dialog: a new tag, or the tag being renamed. */
type Naming = { tag?: TagRow };

/** A reserved tag's action: shown, focusable and unavailable, its reason on hover and to screen readers. */
function ReservedAction({ label, reason }: { label: string; reason: string }) {
  return (
    <button type="button" className="button button--small button--secondary" aria-disabled="true" title={reason}>
      {label}
    </button>
  );
}

/** /admin/manage/tags and its organisation variant: the organisation's tags for its reports (spec §2 Tags). */
export function TagsPage({ viewer, organisationID }: TagsPageProps) {
  const { params, searchText, setSearchText, update } = useListAddress<FilterListParams>(readFilterListParams, writeFilterListParams);
  const [pending, setPending] = useState<Pending>();
  const [naming, setNaming] = useState<Naming>();
  const variables = useMemo(
    () => ({ organisationID: organisationID ?? null, search: params.search || null, filter: params.filter, limit: PAGE_SIZE, offset: (params.page - 1) * PAGE_SIZE }),
    [organisationID, params.search, params.filter, params.page],
  );
  const [list, refetch] = useQuery<TagListData>({ query: TAGS_QUERY, variables });
  const [, archive] = useMutation(ARCHIVE_MUTATION);
  const [, unarchive] = useMutation(UNARCHIVE_MUTATION);
  useDocumentTitle(['Tags']);

  const total = list.data?.tags.total ?? 0;
  const rows = list.data?.tags.list;
  useLastPageGuard(rows, total, params.page, PAGE_SIZE, update);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const mayRename = can(viewer, 'TagUpdate');

  const runPending = async (): Promise<string | undefined> => {
    if (!pending) return undefined;
    const result = await (pending.action === 'archive' ? archive : unarchive)({ id: pending.tag.id });
    if (result.error) return errorMessage(result.error);
    notify(`Successfully ${pending.action}d tag`);
    reload();
    return undefined;
  };

  const onSaved = (name: string) => {
    notify(naming?.tag ? `Successfully updated tag "${name}"` : `Successfully created tag "${name}"`);
    reload();
  };

  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>
          Tags
        </h1>
        {can(viewer, 'TagCreate') && (
          <button type="button" className="button" onClick={() => setNaming({})}>
            Create Tag
          </button>
        )}
      </div>
      <ErrorBanner message={errorMessage(list.error)} />
      <FilterListControls idPrefix="tag" placeholder="Search tags" filter={params.filter} searchText={searchText} onSearchText={setSearchText} onChange={(change) => update(change)} />
      <ListCard label="Tags" fetching={list.fetching} rows={rows} empty="No tags found">
        {(shown) => (
          <>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Reports</th>
                <th scope="col">Updated At</th>
                <ActionsHeader />
              </tr>
            </thead>
            <tbody>
              {shown.map((tag) => (
                <tr key={tag.id}>
                  <td data-label="Name">
                    <Link to={reportListPath(organisationID, tag.id)}>{tag.name}</Link>
                    {tag.isInternal && (
                      <>
                        {' '}
                        <Badge tone="neutral">Reserved</Badge>
                      </>
                    )}
                    {tag.archived && <span className="muted"> Archived</span>}
                  </td>
                  <td data-label="Reports">{tag.submissionsCount}</td>
                  <td data-label="Updated At">{formatDateTime(tag.updatedAt) ?? ''}</td>
                  <td className="table__actions">
                    <div className="row-actions">
                      {tag.isInternal ? (
                        <>
                          {mayRename && <ReservedAction label="Edit" reason={CANNOT_EDIT} />}
                          <ReservedAction label="Archive" reason={CANNOT_DELETE} />
                        </>
                      ) : (
                        <>
                          {mayRename && (
                            <button type="button" className="button button--small button--secondary" onClick={() => setNaming({ tag })}>
                              Edit
                            </button>
                          )}
                          <ArchiveToggle archived={tag.archived} onChoose={(action) => setPending({ action, tag })} />
                        </>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </>
        )}
      </ListCard>
      <Pagination page={params.page} pageSize={PAGE_SIZE} total={total} onPage={(page) => update({ page })} label="Tag pages" />
      {pending && <ConfirmDialog action={pending.action} name="tag" onConfirm={runPending} onClose={() => setPending(undefined)} />}
      {naming && <TagNameDialog tag={naming.tag} organisationID={organisationID} onSaved={onSaved} onClose={() => setNaming(undefined)} />}
    </main>
  );
}
