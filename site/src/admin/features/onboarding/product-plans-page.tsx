import { ArchiveToggle } from '../../ui/archive-toggle';
import { useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { TextField } from '../../../lib/text-field';
import { ActionsHeader } from '../../ui/actions-header';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Dialog } from '../../ui/dialog';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { readFilterListParams, writeFilterListParams, type FilterListParams } from '../../ui/filter-list-params';
import { FilterListControls } from '../../ui/list-controls';
import { notify } from '../../ui/notice-store';
import { Pagination } from '../../ui/pagination';
import { useLastPageGuard, useListAddress } from '../../ui/use-list-address';
import { formatPrice } from './onboarding-api';

const PAGE_SIZE = 20;

type PlanRow = { id: string; name: string; seats: number; price: number; archived: boolean };
const FIELDS = 'id name seats price archived';
const PLANS = `query ProductPlans($search: String, $filter: ListFilter, $limit: Int, $offset: Int) { productPlans(search: $search, filter: $filter, limit: $limit, offset: $offset) { total list { ${FIELDS} } } }`;
const CREATE = `mutation ProductPlanCreate($input: ProductPlanInput!) { productPlanCreate(input: $input) { ${FIELDS} } }`;
const UPDATE = `mutation ProductPlanUpdate($id: ID!, $input: ProductPlanInput!) { productPlanUpdate(id: $id, input: $input) { ${FIELDS} } }`;
const ARCHIVE = `mutation ProductPlanArchive($id: ID!) { productPlanArchive(id: $id) { ${FIELDS} } }`;
const UNARCHIVE = `mutation ProductPlanUnarchive($id: ID!) { productPlanUnarchive(id: $id) { ${FIELDS} } }`;

type Pending = { action: 'archive' | 'unarchive'; plan: PlanRow };

/** /admin/manage/product-plans (decision 037): the super admin's plans that sign-up offers. */
export function ProductPlansPage() {
  useDocumentTitle(['Product Plans']);
  const { params, searchText, setSearchText, update } = useListAddress<FilterListParams>(readFilterListParams, writeFilterListParams);
  const variables = useMemo(() => ({ search: params.search || null, filter: params.filter, limit: PAGE_SIZE, offset: (params.page - 1) * PAGE_SIZE }), [params.search, params.filter, params.page]);
  const [list, refetch] = useQuery<{ productPlans: { total: number; list: PlanRow[] } }>({ query: PLANS, variables });
  const [, archive] = useMutation(ARCHIVE);
  const [, unarchive] = useMutation(UNARCHIVE);
  const [pending, setPending] = useState<Pending>();
  const [editing, setEditing] = useState<PlanRow | 'new'>();
  const total = list.data?.productPlans.total ?? 0;
  const rows = list.data?.productPlans.list;
  useLastPageGuard(rows, total, params.page, PAGE_SIZE, update);
  const reload = () => refetch({ requestPolicy: 'network-only' });

  const runPending = async (): Promise<string | undefined> => {
    if (!pending) return undefined;
    const result = await (pending.action === 'archive' ? archive : unarchive)({ id: pending.plan.id });
    if (result.error) return errorMessage(result.error);
    notify(`Successfully ${pending.action}d product plan`);
    reload();
    return undefined;
  };

  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>
          Product Plans
        </h1>
        <button type="button" className="button" onClick={() => setEditing('new')}>
          Create
        </button>
      </div>
      <ErrorBanner message={errorMessage(list.error)} />
      <FilterListControls idPrefix="plan" placeholder="Search plans" filter={params.filter} searchText={searchText} onSearchText={setSearchText} onChange={(change) => update(change)} />
      <section className="card card--flush" aria-busy={list.fetching} aria-label="Product plans">
        {rows === undefined ? (
          <p className="muted card__body">{list.fetching ? 'Loading…' : ''}</p>
        ) : rows.length === 0 ? (
          <p className="muted card__body">No product plans found</p>
        ) : (
          <div className="table-scroll">
            <table className="table table--cards">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Seats</th>
                  <th scope="col">Price</th>
                  <th scope="col">Sign-up Link</th>
                  <ActionsHeader />
                </tr>
              </thead>
              <tbody>
                {rows.map((plan) => (
                  <tr key={plan.id}>
                    <td data-label="Name">
                      {plan.name}
                      {plan.archived && <span className="muted"> Archived</span>}
                    </td>
                    <td data-label="Seats">{plan.seats}</td>
                    <td data-label="Price">{formatPrice(plan.price)}</td>
                    <td data-label="Sign-up Link">
                      <code>/onboarding/sign-up/{plan.id}</code>
                    </td>
                    <td className="table__actions">
                      <div className="row-actions">
                        <button type="button" className="button button--small button--secondary" onClick={() => setEditing(plan)}>
                          Edit
                        </button>
                        <ArchiveToggle archived={plan.archived} onChoose={(action) => setPending({ action, plan })} />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <Pagination page={params.page} pageSize={PAGE_SIZE} total={total} onPage={(page) => update({ page })} label="Product plan pages" />
      {pending && <ConfirmDialog action={pending.action} name="product plan" onConfirm={runPending} onClose={() => setPending(undefined)} />}
      {editing && <PlanDialog plan={editing === 'new' ? null : editing} onClose={() => setEditing(undefined)} onSaved={reload} />}
    </main>
  );
}

function PlanDialog({ plan, onClose, onSaved }: { plan: PlanRow | null; onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState(plan?.name ?? '');
  const [seats, setSeats] = useState(String(plan?.seats ?? 10));
  const [price, setPrice] = useState(String(plan?.price ?? 0));
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [, create] = useMutation(CREATE);
  const [, save] = useMutation(UPDATE);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    if (!name.trim()) return setError('Required');
    const input = { name, seats: Number(seats), price: Number(price) };
    if (!Number.isInteger(input.seats) || !Number.isFinite(input.price)) return setError('Seats and price must be numbers');
    setSaving(true);
    const result = plan ? await save({ id: plan.id, input }) : await create({ input });
    setSaving(false);
    if (result.error) return setError(errorMessage(result.error));
    notify(`Successfully ${plan ? 'updated' : 'created'} product plan "${name.trim()}"`);
    onSaved();
    onClose();
  };

  return (
    <Dialog title={plan ? 'Edit Product Plan' : 'Create Product Plan'} onClose={onClose}>
      <form className="stack" noValidate onSubmit={submit}>
        <ErrorBanner message={error} />
        <TextField id="plan-name" label="Name" value={name} onChange={setName} />
        <TextField id="plan-seats" label="Seats" value={seats} onChange={setSeats} />
        <TextField id="plan-price" label="Price (dollars)" value={price} onChange={setPrice} />
        <button type="submit" className="button" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </form>
    </Dialog>
  );
}
