import { useState } from 'react';
import { useMutation } from 'urql';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useDocumentTitle } from '../../ui/document-title';
import { errorMessage } from '../../ui/errors';
import { readFilterListParams, writeFilterListParams, type FilterListParams } from '../../ui/filter-list-params';
import { FilterListControls, SearchField } from '../../ui/list-controls';
import { notify } from '../../ui/notice-store';
import { useListAddress } from '../../ui/use-list-address';
import { can, type Viewer } from '../../viewer';
import { ResourceDialog } from './resource-dialog';
import { ResourceSection, type RowAction } from './resource-section';
import { MUTATIONS, type ResourceKind } from './resources-api';
import './resources.css';

/**
 * /admin/resources (spec §2 Resources): help videos and documents for every signed-in user, guests
 * included. Those holding the Resource permissions (super admins, decision 002) add, edit, archive
 * and unarchive them, and see archived ones under the Archived and All filters.
 */
export function ResourcesPage({ viewer }: { viewer: Viewer }) {
  const { params, searchText, setSearchText, update } = useListAddress<FilterListParams>(readFilterListParams, writeFilterListParams);
  const manage = can(viewer, 'ResourceUnarchive');
  const filter = manage ? params.filter : 'Active';
  const [adding, setAdding] = useState<ResourceKind>();
  const [pending, setPending] = useState<RowAction>();
  const [version, setVersion] = useState(0);
  const [, archive] = useMutation(pending ? MUTATIONS[pending.kind].archive : MUTATIONS.video.archive);
  const [, unarchive] = useMutation(pending ? MUTATIONS[pending.kind].unarchive : MUTATIONS.video.unarchive);
  useDocumentTitle(['Resources']);
  const reload = () => setVersion((value) => value + 1);

  const runPending = async (): Promise<string | undefined> => {
    if (!pending || pending.action === 'edit') return undefined;
    const result = await (pending.action === 'archive' ? archive : unarchive)({ id: pending.row.id });
    if (result.error) return errorMessage(result.error);
    notify(`Successfully ${pending.action}d ${pending.kind}`);
    reload();
    return undefined;
  };

  const sections = (['video', 'document'] as const).map((kind) => (
    <ResourceSection
      key={`${kind}/${params.search}/${filter}`}
      kind={kind}
      heading={kind === 'video' ? 'Videos' : 'Documents'}
      search={params.search}
      filter={filter}
      manage={manage}
      version={version}
      onAction={setPending}
    />
  ));

  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>
          Resources
        </h1>
        {can(viewer, 'ResourceCreate') && (
          <div className="actions">
            <button type="button" className="button" onClick={() => setAdding('video')}>
              Add Video
            </button>
            <button type="button" className="button" onClick={() => setAdding('document')}>
              Add Document
            </button>
          </div>
        )}
      </div>
      {manage ? (
        <FilterListControls idPrefix="resource" placeholder="Search resources" filter={params.filter} searchText={searchText} onSearchText={setSearchText} onChange={(change) => update(change)} />
      ) : (
        <div className="list-controls" role="search">
          <SearchField id="resource-search" value={searchText} placeholder="Search resources" onChange={setSearchText} />
        </div>
      )}
      {sections}
      {adding && <ResourceDialog kind={adding} onClose={() => setAdding(undefined)} onSaved={reload} />}
      {pending?.action === 'edit' && <ResourceDialog kind={pending.kind} editing={pending.row} onClose={() => setPending(undefined)} onSaved={reload} />}
      {pending && pending.action !== 'edit' && <ConfirmDialog action={pending.action} name={pending.kind} onConfirm={runPending} onClose={() => setPending(undefined)} />}
    </main>
  );
}
