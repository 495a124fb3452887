import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { readFilterListParams, writeFilterListParams, type FilterListParams } from '../../ui/filter-list-params';
import { FilterListControls } from '../../ui/list-controls';
import { notify } from '../../ui/notice-store';
import { Pagination } from '../../ui/pagination';
import { useLastPageGuard, useListAddress } from '../../ui/use-list-address';
import { can, isSuperAdmin, type Viewer } from '../../viewer';
import { CreateTiles } from './create-tiles';
import { ARCHIVE_MUTATION, FORMS_QUERY, LOCK_TOGGLE_MUTATION, UNARCHIVE_MUTATION, type FormRow } from './forms-api';
import { FormsTable, type FormAction } from './forms-table';
import './forms.css';

const PAGE_SIZE = 20;
const DONE: Record<FormAction, string> = { archive: 'archived', unarchive: 'unarchived', lock: 'locked', unlock: 'unlocked' };

type FormsPageProps = { viewer: Viewer; organisationID?: string | undefined };
type Pending = { action: FormAction; form: FormRow };

/** The organisation's report forms: start a new one, find one, lock or archive it (spec §2 Report forms). */
export function FormsPage({ viewer, organisationID }: FormsPageProps) {
  const { params, searchText, setSearchText, update } = useListAddress<FilterListParams>(readFilterListParams, writeFilterListParams);
  const [pending, setPending] = useState<Pending>();
  const variables = useMemo(
    () => ({ organisationID: organisationID ?? null, search: params.search || null, filter: params.filter, limit: PAGE_SIZE, offset: (params.page - 1) * PAGE_SIZE }),
    [organisationID, params.search, params.filter, params.page],
  );
  const [list, refetch] = useQuery<{ reportForms: { total: number; list: FormRow[] } }>({ query: FORMS_QUERY, variables });
  const [, archive] = useMutation(ARCHIVE_MUTATION);
  const [, unarchive] = useMutation(UNARCHIVE_MUTATION);
  const [, toggleLock] = useMutation(LOCK_TOGGLE_MUTATION);
  useDocumentTitle(['Report Forms']);

  const total = list.data?.reportForms.total ?? 0;
  const rows = list.data?.reportForms.list;
  useLastPageGuard(rows, total, params.page, PAGE_SIZE, update);

  const runPending = async (): Promise<string | undefined> => {
    if (!pending) return undefined;
    const run = pending.action === 'archive' ? archive : pending.action === 'unarchive' ? unarchive : toggleLock;
    const result = await run({ id: pending.form.id });
    if (result.error) return errorMessage(result.error);
    notify(`Successfully ${DONE[pending.action]} report form`);
    refetch({ requestPolicy: 'network-only' });
    return undefined;
  };

  // A super admin creates inside one organisation: the form needs its organisation (spec §8).
  const mayCreate = can(viewer, 'ReportFormCreate') && (!isSuperAdmin(viewer) || organisationID !== undefined);
  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>
          Report Forms
        </h1>
      </div>
      {mayCreate && <CreateTiles organisationID={organisationID} withTemplates={can(viewer, 'ReportFormTemplateList')} />}
      <ErrorBanner message={errorMessage(list.error)} />
      <FilterListControls idPrefix="form" placeholder="Search forms" filter={params.filter} searchText={searchText} onSearchText={setSearchText} onChange={(change) => update(change)} />
      <section className="card card--flush" aria-busy={list.fetching} aria-label="Report forms">
        {rows === undefined ? (
          <p className="muted card__body">{list.fetching ? 'Loading…' : ''}</p>
        ) : rows.length === 0 ? (
          <p className="muted card__body">No report forms found</p>
        ) : (
          <FormsTable
            forms={rows}
            canRead={can(viewer, 'ReportFormRead')}
            canUpdate={can(viewer, 'ReportFormUpdate')}
            organisationID={organisationID}
            onAction={(action, form) => setPending({ action, form })}
          />
        )}
      </section>
      <Pagination page={params.page} pageSize={PAGE_SIZE} total={total} onPage={(page) => update({ page })} label="Report form pages" />
      {pending && <ConfirmDialog action={pending.action} name="report form" onConfirm={runPending} onClose={() => setPending(undefined)} />}
    </main>
  );
}
