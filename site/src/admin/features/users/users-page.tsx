import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { readSearchAndPage, SEARCH_MAX_LENGTH, type ListState } from '../../ui/list-address';
import { userCreatePath, userEditPath, type UserRoleType } from '../../paths';
import { ActionsHeader } from '../../ui/actions-header';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { Link } from '../../ui/link';
import { SearchField } from '../../ui/list-controls';
import { notify } from '../../ui/notice-store';
import { Pagination } from '../../ui/pagination';
import { useLastPageGuard, useListAddress } from '../../ui/use-list-address';
import { can, isSuperAdmin, type Viewer } from '../../viewer';
import { SeatsLine } from './seats-line';
import { UsersExport } from './users-export';
import { actsOn, ROLE_TYPES, USER_DELETE, USER_KICK, USER_SUSPEND, USER_UNSUSPEND, USERS_QUERY, type UserRow } from './users-api';

const PAGE_SIZE = 20;

type Action = 'suspend' | 'unsuspend' | 'permanently delete' | 'remove';
type Pending = { action: Action; user: UserRow };
const DONE: Record<Action, string> = { suspend: 'suspended', unsuspend: 'unsuspended', 'permanently delete': 'deleted', remove: 'removed' };

const readParams = (search: string): ListState => readSearchAndPage(new URLSearchParams(search), SEARCH_MAX_LENGTH);
function writeParams(params: ListState): string {
  const query = new URLSearchParams();
  if (params.search) query.set('search', params.search);
  if (params.page !== 1) query.set('page', String(params.page));
  const text = query.toString();
  return text ? `?${text}` : '';
}

type UsersPageProps = { viewer: Viewer; organisationID?: string | undefined; roleType?: UserRoleType | undefined };

/** Users (spec §2): the organisation's staff and its guests, or every user of one role for a super admin. */
export function UsersPage({ viewer, organisationID, roleType }: UsersPageProps) {
  const { params, searchText, setSearchText, update } = useListAddress<ListState>(readParams, writeParams);
  const [pending, setPending] = useState<Pending>();
  // Inside an organisation (a super admin's page, or anyone else's own) its guests from elsewhere are listed too, to be removed.
  const organisationScope = organisationID ?? (isSuperAdmin(viewer) ? undefined : viewer.organisation?.id);
  const variables = useMemo(
    () => ({
      organisationID: organisationID ?? null,
      roleName: roleType ? ROLE_TYPES[roleType].role : null,
      includeGuestMembers: organisationScope !== undefined,
      search: params.search || null,
      limit: PAGE_SIZE,
      offset: (params.page - 1) * PAGE_SIZE,
    }),
    [organisationID, roleType, organisationScope, params.search, params.page],
  );
  const [list, refetch] = useQuery<{ users: { total: number; list: UserRow[] } }>({ query: USERS_QUERY, variables });
  const [, suspend] = useMutation(USER_SUSPEND);
  const [, unsuspend] = useMutation(USER_UNSUSPEND);
  const [, remove] = useMutation(USER_DELETE);
  const [, kick] = useMutation(USER_KICK);
  const title = roleType ? ROLE_TYPES[roleType].title : 'Users';
  useDocumentTitle([title]);

  const total = list.data?.users.total ?? 0;
  const rows = list.data?.users.list;
  useLastPageGuard(rows, total, params.page, PAGE_SIZE, update);

  const runPending = async (): Promise<string | undefined> => {
    if (!pending) return undefined;
    const id = pending.user.id;
    const result =
      pending.action === 'suspend'
        ? await suspend({ id })
        : pending.action === 'unsuspend'
          ? await unsuspend({ id })
          : pending.action === 'remove'
            ? await kick({ id, organisationID: organisationScope })
            : await remove({ id });
    if (result.error) return errorMessage(result.error);
    notify(`Successfully ${DONE[pending.action]} user`);
    refetch({ requestPolicy: 'network-only' });
    return undefined;
  };

  const isGuestHere = (user: UserRow) => organisationScope !== undefined && user.organisation?.id !== organisationScope;

  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>
          {title}
        </h1>
        <div className="actions">
          {isSuperAdmin(viewer) && <UsersExport />}
          {can(viewer, 'UserCreate') && !roleType && (
            <Link to={userCreatePath(organisationID)} className="button">
              Create User
            </Link>
          )}
        </div>
      </div>
      {organisationScope && <SeatsLine viewer={viewer} organisationID={organisationScope} />}
      <ErrorBanner message={errorMessage(list.error)} />
      <div className="list-controls">
        <SearchField id="users-search" value={searchText} placeholder="Search name or email" onChange={setSearchText} />
      </div>
      <section className="card card--flush" aria-busy={list.fetching} aria-label={title}>
        {rows === undefined ? (
          <p className="muted card__body">{list.fetching ? 'Loading…' : ''}</p>
        ) : rows.length === 0 ? (
          <p className="muted card__body">No users found</p>
        ) : (
          <div className="table-scroll">
            <table className="table table--cards">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  {!organisationScope && <th scope="col">Organisation</th>}
                  <th scope="col">Status</th>
                  <ActionsHeader />
                </tr>
              </thead>
              <tbody>
                {rows.map((user) => {
                  const lower = actsOn(viewer.role.name, user.role.name);
                  const guestHere = isGuestHere(user);
                  const name = `${user.firstName} ${user.lastName}`.trim() || user.email;
                  return (
                    <tr key={user.id}>
                      <td data-label="Name">{lower && !guestHere ? <Link to={userEditPath(user.id, organisationID)}>{name}</Link> : name}</td>
                      <td data-label="Email">{user.email}</td>
                      <td data-label="Role">{guestHere ? `${user.role.label} (${user.organisation?.name ?? 'guest'})` : user.role.label}</td>
                      {!organisationScope && <td data-label="Organisation">{user.organisation?.name ?? '—'}</td>}
                      <td data-label="Status">{user.suspended ? 'Suspended' : user.verified ? 'Active' : 'Unverified'}</td>
                      <td className="table__actions">
                        {lower && (
                          <div className="row-actions">
                            {guestHere ? (
                              <button type="button" className="button button--small button--secondary" onClick={() => setPending({ action: 'remove', user })}>
                                Remove
                              </button>
                            ) : (
                              <>
                                {!user.suspended && (
                                  <Link to={userEditPath(user.id, organisationID)} className="button button--small button--secondary">
                                    Edit
                                  </Link>
                                )}
                                <button type="button" className="button button--small button--secondary" onClick={() => setPending({ action: user.suspended ? 'unsuspend' : 'suspend', user })}>
                                  {user.suspended ? 'Unsuspend' : 'Suspend'}
                                </button>
                                <button type="button" className="button button--small button--secondary" onClick={() => setPending({ action: 'permanently delete', user })}>
                                  Delete
                                </button>
                              </>
                            )}
                          </div>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <Pagination page={params.page} pageSize={PAGE_SIZE} total={total} onPage={(page) => update({ page })} label="User pages" />
      {pending && <ConfirmDialog action={pending.action} name="user" onConfirm={runPending} onClose={() => setPending(undefined)} />}
    </main>
  );
}
