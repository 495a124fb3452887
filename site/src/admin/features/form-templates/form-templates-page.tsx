import { ArchiveToggle } from '../../ui/archive-toggle';
import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { formatDateTime } from '../../../lib/format';
import { formTemplateCreatePath, formTemplateEditPath } from '../../paths';
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
import { ARCHIVE_MUTATION, TEMPLATES_QUERY, UNARCHIVE_MUTATION, type TemplateRow } from './form-templates-api';

const PAGE_SIZE = 20;

type Pending = { action: 'archive' | 'unarchive'; template: TemplateRow };

/** The super admin's form templates, which organisations start their forms from (spec §2 Form templates). */
export function FormTemplatesPage() {
  const { params, searchText, setSearchText, update } = useListAddress<FilterListParams>(readFilterListParams, writeFilterListParams);
  const [pending, setPending] = useState<Pending>();
  const variables = useMemo(
    () => ({ search: params.search || null, filter: params.filter, limit: PAGE_SIZE, offset: (params.page - 1) * PAGE_SIZE }),
    [params.search, params.filter, params.page],
  );
  const [list, refetch] = useQuery<{ reportFormTemplates: { total: number; list: TemplateRow[] } }>({ query: TEMPLATES_QUERY, variables });
  const [, archive] = useMutation(ARCHIVE_MUTATION);
  const [, unarchive] = useMutation(UNARCHIVE_MUTATION);
  useDocumentTitle(['Form Templates']);

  const total = list.data?.reportFormTemplates.total ?? 0;
  const rows = list.data?.reportFormTemplates.list;
  useLastPageGuard(rows, total, params.page, PAGE_SIZE, update);

  const runPending = async (): Promise<string | undefined> => {
    if (!pending) return undefined;
    const result = await (pending.action === 'archive' ? archive : unarchive)({ id: pending.template.id });
    if (result.error) return errorMessage(result.error);
    notify(`Successfully ${pending.action}d form template`);
    refetch({ requestPolicy: 'network-only' });
    return undefined;
  };

  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>
          Form Templates
        </h1>
        <Link to={formTemplateCreatePath()} className="button">
          Create
        </Link>
      </div>
      <ErrorBanner message={errorMessage(list.error)} />
      <FilterListControls idPrefix="template" placeholder="Search templates" filter={params.filter} searchText={searchText} onSearchText={setSearchText} onChange={(change) => update(change)} />
      <section className="card card--flush" aria-busy={list.fetching} aria-label="Form templates">
        {rows === undefined ? (
          <p className="muted card__body">{list.fetching ? 'Loading…' : ''}</p>
        ) : rows.length === 0 ? (
          <p className="muted card__body">No form templates found</p>
        ) : (
          <div className="table-scroll">
            <table className="table table--cards">
              <thead>
                <tr>
                  <th scope="col">Template Name</th>
                  <th scope="col">Created At</th>
                  <ActionsHeader />
                </tr>
              </thead>
              <tbody>
                {rows.map((template) => (
                  <tr key={template.id}>
                    <td data-label="Template Name">
                      <Link to={formTemplateEditPath(template.id)}>{template.name}</Link>
                      {template.archived && <span className="muted"> Archived</span>}
                    </td>
                    <td data-label="Created At">{formatDateTime(template.createdAt) ?? ''}</td>
                    <td className="table__actions">
                      <div className="row-actions">
                        <Link to={formTemplateEditPath(template.id)} className="button button--small button--secondary">
                          Edit
                        </Link>
                        <ArchiveToggle archived={template.archived} onChoose={(action) => setPending({ action, template })} />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <Pagination page={params.page} pageSize={PAGE_SIZE} total={total} onPage={(page) => update({ page })} label="Form template pages" />
      {pending && <ConfirmDialog action={pending.action} name="form template" onConfirm={runPending} onClose={() => setPending(undefined)} />}
    </main>
  );
}
