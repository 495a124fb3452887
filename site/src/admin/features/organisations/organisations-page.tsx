import { ArchiveToggle } from '../../ui/archive-toggle';
import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { downloadFile } from '../../../lib/download';
import { formatDateTime } from '../../../lib/format';
import { dashboardPath, organisationEditPath, organisationOverviewPath } from '../../paths';
import { ActionsHeader } from '../../ui/actions-header';
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
import { OrganisationCreateDialog } from './organisation-create-dialog';
import { ARCHIVE_MUTATION, EXPORT_FILE_NAME, EXPORT_PATH, ORGANISATIONS_QUERY, UNARCHIVE_MUTATION, type OrganisationRow } from './organisations-api';
import './organisations.css';

const PAGE_SIZE = 20;

type Pending = { action: 'archive' | 'unarchive'; organisation: OrganisationRow };

/**
 * /admin/manage/organisations for the super admin (spec §2 Organisations): Name and Created At,
 * Active / Archived / All, search (500 ms, back to page 1), 20 a page, create, edit, archive,
 * unarchive and Export. A name leads into the organisation: its dashboard, with the 'You are
 * managing organisation' banner and the organisation's own menu.
 */
export function OrganisationsPage() {
  const { params, searchText, setSearchText, update } = useListAddress<FilterListParams>(readFilterListParams, writeFilterListParams);
  const [pending, setPending] = useState<Pending>();
  const [creating, setCreating] = useState(false);
  const [exporting, setExporting] = useState(false);
  const variables = useMemo(
    () => ({ search: params.search || null, filter: params.filter, sortBy: 'Name', sortDir: 'Ascending', limit: PAGE_SIZE, offset: (params.page - 1) * PAGE_SIZE }),
    [params.search, params.filter, params.page],
  );
  const [list, refetch] = useQuery<{ organisations: { total: number; list: OrganisationRow[] } }>({ query: ORGANISATIONS_QUERY, variables });
  const [, archive] = useMutation(ARCHIVE_MUTATION);
  const [, unarchive] = useMutation(UNARCHIVE_MUTATION);
  useDocumentTitle(['Organisations']);

  const total = list.data?.organisations.total ?? 0;
  const rows = list.data?.organisations.list;
  useLastPageGuard(rows, total, params.page, PAGE_SIZE, update);
  const reload = () => refetch({ requestPolicy: 'network-only' });

  const runPending = async (): Promise<string | undefined> => {
    if (!pending) return undefined;
    const result = await (pending.action === 'archive' ? archive : unarchive)({ id: pending.organisation.id });
    if (result.error) return errorMessage(result.error);
    notify(`Successfully ${pending.action}d organisation`);
    reload();
    return undefined;
  };

  // Spec §7: export errors are only logged.
  const runExport = async () => {
    setExporting(true);
    try {
      const result = await downloadFile(EXPORT_PATH, EXPORT_FILE_NAME, { search: params.filter });
      if (!result.ok) console.error('Organisations export failed:', result.message);
    } finally {
      setExporting(false);
    }
  };

  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>
          Organisations
        </h1>
        <div className="actions">
          <button type="button" className="button button--secondary" onClick={() => void runExport()} disabled={exporting}>
            {exporting ? 'Exporting…' : 'Export'}
          </button>
          <button type="button" className="button" onClick={() => setCreating(true)}>
            Create
          </button>
        </div>
      </div>
      <ErrorBanner message={errorMessage(list.error)} />
      <FilterListControls idPrefix="organisation" placeholder="Search organisations" filter={params.filter} searchText={searchText} onSearchText={setSearchText} onChange={(change) => update(change)} />
      <section className="card card--flush" aria-busy={list.fetching} aria-label="Organisations">
        {rows === undefined ? (
          <p className="muted card__body">{list.fetching ? 'Loading…' : ''}</p>
        ) : rows.length === 0 ? (
          <p className="muted card__body">No organisations found</p>
        ) : (
          <div className="table-scroll">
            <table className="table table--cards">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Created At</th>
                  <ActionsHeader />
                </tr>
              </thead>
              <tbody>
                {rows.map((organisation) => (
                  <tr key={organisation.id}>
                    <td data-label="Name">
                      {organisation.archived ? organisation.name : <Link to={dashboardPath(organisation.id)}>{organisation.name}</Link>}
                      {organisation.archived && <span className="muted"> Archived</span>}
                    </td>
                    <td data-label="Created At">{formatDateTime(organisation.createdAt) ?? ''}</td>
                    <td className="table__actions">
                      <div className="row-actions">
                        <Link to={organisationOverviewPath(organisation.id)} className="button button--small button--secondary">
                          View
                        </Link>
                        {!organisation.archived && (
                          <Link to={organisationEditPath(organisation.id)} className="button button--small button--secondary">
                            Edit
                          </Link>
                        )}
                        <ArchiveToggle archived={organisation.archived} onChoose={(action) => setPending({ action, organisation })} />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <Pagination page={params.page} pageSize={PAGE_SIZE} total={total} onPage={(page) => update({ page })} label="Organisation pages" />
      {pending && <ConfirmDialog action={pending.action} name="organisation" onConfirm={runPending} onClose={() => setPending(undefined)} />}
      {creating && <OrganisationCreateDialog onClose={() => setCreating(false)} onCreated={reload} />}
    </main>
  );
}
