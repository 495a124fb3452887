import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { formatDateTime } from '../../../../lib/format';
import { ActionsHeader } from '../../../ui/actions-header';
import { Badge } from '../../../ui/badges';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { EmailDialog } from '../../../ui/email-dialog';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorMessage } from '../../../ui/errors';
import { notify } from '../../../ui/notice-store';
import { INVITE_MUTATION, INVITE_REMOVE_MUTATION, INVITES_QUERY, type GuestInvite } from './detail-api';

// An invite answered or withdrawn changes the list; so does a new one.
const INVITES_CONTEXT = { additionalTypenames: ['GuestReportInvite'] };

/** Guest users invited to this one report, for its owner when they run the organisation. */
export function InvitesSection({ reportID }: { reportID: string }) {
  const [result] = useQuery<{ reportSubmissionInvites: GuestInvite[] }>({ query: INVITES_QUERY, variables: { id: reportID }, context: INVITES_CONTEXT });
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<GuestInvite>();
  const [, remove] = useMutation(INVITE_REMOVE_MUTATION);
  const invites = result.data?.reportSubmissionInvites.filter((invite) => !invite.archived);

  const onRemove = async (): Promise<string | undefined> => {
    if (!removing) return undefined;
    const outcome = await remove({ id: removing.id }, INVITES_CONTEXT);
    if (outcome.error) return errorMessage(outcome.error);
    notify('Successfully removed invite');
    return undefined;
  };

  return (
    <section className="card card--flush stack" aria-labelledby="invites-title">
      <div className="card__header">
        <h2 id="invites-title" className="card__title">
          Invites
        </h2>
        <button type="button" className="button button--small" onClick={() => setInviting(true)}>
          Invite Guest User
        </button>
      </div>
      <ErrorBanner message={errorMessage(result.error)} />
      {invites?.length === 0 && <p className="muted card__body">No invites found</p>}
      {invites && invites.length > 0 && (
        <div className="table-scroll">
          <table className="table table--cards">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Status</th>
                <th scope="col">Invited At</th>
                <ActionsHeader />
              </tr>
            </thead>
            <tbody>
              {invites.map((invite) => (
                <tr key={invite.id}>
                  <td data-label="Email">{invite.email}</td>
                  <td data-label="Status">
                    <Badge tone={invite.status === 'Approved' ? 'positive' : invite.status === 'Opened' ? 'warning' : 'neutral'}>{invite.status}</Badge>
                  </td>
                  <td data-label="Invited At">{formatDateTime(invite.createdAt) ?? ''}</td>
                  <td className="table__actions">
                    <button type="button" className="button button--small button--secondary" onClick={() => setRemoving(invite)}>
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {inviting && <InviteDialog reportID={reportID} onClose={() => setInviting(false)} />}
      {removing && <ConfirmDialog action="remove" name="invite" onConfirm={onRemove} onClose={() => setRemoving(undefined)} />}
    </section>
  );
}

function InviteDialog({ reportID, onClose }: { reportID: string; onClose: () => void }) {
  const [, invite] = useMutation(INVITE_MUTATION);
  const send = async (to: string) => {
    const result = await invite({ id: reportID, email: to }, INVITES_CONTEXT);
    if (result.error) return errorMessage(result.error);
    notify(`${to} has been invited to this report`);
    return undefined;
  };
  return (
    <EmailDialog
      title="Invite Guest User"
      intro="A guest user from outside your organisation gets access to this report only, once they accept."
      fieldId="invite-guest-email"
      submitLabel="Invite"
      busyLabel="Inviting…"
      onSubmit={send}
      onClose={onClose}
    />
  );
}
