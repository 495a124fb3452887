import { ArchiveToggle } from '../../ui/archive-toggle';
import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { formatDateTime } from '../../../lib/format';
import { ActionsHeader } from '../../ui/actions-header';
import { Badge } from '../../ui/badges';
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
import { InviteUserDialog } from './invite-user-dialog';
import {
  ARCHIVE_MUTATION,
  INVITES_QUERY,
  RESEND_MUTATION,
  UNARCHIVE_MUTATION,
  canManageInvite,
  createdText,
  isExpired,
  mailFailedText,
  resendFailedText,
  resentText,
  type InviteListData,
  type InviteRow,
  type Seats,
} from './invites-api';

const PAGE_SIZE = 20;

type Pending = { action: 'archive' | 'unarchive'; invite: InviteRow };

type InvitesPageProps = {
  viewer: Viewer;
  /** The organisation a super admin is working inside (the /organisations variant). */
  organisationID?: string | undefined;
};

/** Seats as activeUsers/openSeatNumber (spec §9), with what the open invites hold besides. */
function SeatSummary({ seats }: { seats: Seats }) {
  const used = seats.activeUsers + seats.pendingInvites;
  return (
    <p className="muted">
      Seats used: {used}/{seats.openSeatNumber} ({seats.activeUsers} active {seats.activeUsers === 1 ? 'user' : 'users'}, {seats.pendingInvites} pending{' '}
      {seats.pendingInvites === 1 ? 'invite' : 'invites'})
    </p>
  );
}

function StatusCell({ invite }: { invite: InviteRow }) {
  if (invite.status === 'Onboarded') return <Badge tone="positive">Onboarded</Badge>;
  return (
    <>
      <Badge tone="warning">Invited</Badge>
      {isExpired(invite) && <span className="muted"> Link expired</span>}
    </>
  );
}

/** /admin/manage/invites and its organisation variant: the organisation's invites to its staff (spec §2 Invites). */
export function InvitesPage({ viewer, organisationID }: InvitesPageProps) {
  const { params, searchText, setSearchText, update } = useListAddress<FilterListParams>(readFilterListParams, writeFilterListParams);
  const [pending, setPending] = useState<Pending>();
  const [inviting, setInviting] = useState(false);
  const [resending, setResending] = useState<string>();
  const variables = useMemo(
    () => ({ organisationID: organisationID ?? null, search: params.search || null, filter: params.filter, limit: PAGE_SIZE, offset: (params.page - 1) * PAGE_SIZE }),
    [organisationID, params.search, params.filter, params.page],
  );
  const [list, refetch] = useQuery<InviteListData>({ query: INVITES_QUERY, variables });
  const [, resend] = useMutation(RESEND_MUTATION);
  const [, archive] = useMutation(ARCHIVE_MUTATION);
  const [, unarchive] = useMutation(UNARCHIVE_MUTATION);
  useDocumentTitle(['Invites']);

  const total = list.data?.onboardInvites.total ?? 0;
  const rows = list.data?.onboardInvites.list;
  const seats = list.data?.onboardInvites.seats;
  useLastPageGuard(rows, total, params.page, PAGE_SIZE, update);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  // A super admin invites from inside one organisation; their list of every organisation's invites has no Invite button.
  const mayInvite = can(viewer, 'OrganisationMemberInviteCreate') && (!isSuperAdmin(viewer) || organisationID !== undefined);
  const showOrganisation = isSuperAdmin(viewer) && organisationID === undefined;

  const runResend = async (invite: InviteRow) => {
    setResending(invite.id);
    const result = await resend({ id: invite.id });
    setResending(undefined);
    if (result.error) notify(resendFailedText(invite.email), 'negative');
    else notify(resentText(invite.email));
    reload();
  };

  const runPending = async (): Promise<string | undefined> => {
    if (!pending) return undefined;
    const result = await (pending.action === 'archive' ? archive : unarchive)({ id: pending.invite.id });
    if (result.error) return errorMessage(result.error);
    notify(`Successfully ${pending.action}d invite`);
    reload();
    return undefined;
  };

  const onCreated = (email: string, hasEmailSent: boolean) => {
    if (hasEmailSent) notify(createdText(email));
    else notify(mailFailedText(email), 'warning');
    reload();
  };

  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>
          Invites
        </h1>
        {mayInvite && (
          <button type="button" className="button" onClick={() => setInviting(true)}>
            Invite User
          </button>
        )}
      </div>
      {seats && <SeatSummary seats={seats} />}
      <ErrorBanner message={errorMessage(list.error)} />
      <FilterListControls idPrefix="invite" placeholder="Search invites" filter={params.filter} searchText={searchText} onSearchText={setSearchText} onChange={(change) => update(change)} />
      <section className="card card--flush" aria-busy={list.fetching} aria-label="Invites">
        {rows === undefined ? (
          <p className="muted card__body">{list.fetching ? 'Loading…' : ''}</p>
        ) : rows.length === 0 ? (
          <p className="muted card__body">No invites found</p>
        ) : (
          <div className="table-scroll">
            <table className="table table--cards">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  {showOrganisation && <th scope="col">Organisation</th>}
                  <th scope="col">Status</th>
                  <th scope="col">Created At</th>
                  <ActionsHeader />
                </tr>
              </thead>
              <tbody>
                {rows.map((invite) => {
                  const manageable = canManageInvite(invite, viewer.role.name);
                  return (
                    <tr key={invite.id}>
                      <td data-label="Name">
                        {invite.firstName} {invite.lastName}
                        {invite.archived && <span className="muted"> Archived</span>}
                      </td>
                      <td data-label="Email">{invite.email}</td>
                      <td data-label="Role">{invite.roleLabel}</td>
                      {showOrganisation && <td data-label="Organisation">{invite.organisation.name}</td>}
                      <td data-label="Status">
                        <StatusCell invite={invite} />
                      </td>
                      <td data-label="Created At">{formatDateTime(invite.createdAt) ?? ''}</td>
                      <td className="table__actions">
                        {manageable && (
                          <div className="row-actions">
                            {invite.status === 'Invited' && !invite.archived && (
                              <button type="button" className="button button--small button--secondary" disabled={resending === invite.id} onClick={() => void runResend(invite)}>
                                {resending === invite.id ? 'Resending…' : 'Resend'}
                              </button>
                            )}
                            <ArchiveToggle archived={invite.archived} onChoose={(action) => setPending({ action, invite })} />
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
      <Pagination page={params.page} pageSize={PAGE_SIZE} total={total} onPage={(page) => update({ page })} label="Invite pages" />
      {pending && <ConfirmDialog action={pending.action} name="invite" onConfirm={runPending} onClose={() => setPending(undefined)} />}
      {inviting && <InviteUserDialog viewer={viewer} organisationID={organisationID} onCreated={onCreated} onClose={() => setInviting(false)} />}
    </main>
  );
}

