import { useState } from 'react';
import { useMutation } from 'urql';
import { ActionsHeader } from '../../../ui/actions-header';
import { Badge } from '../../../ui/badges';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { errorMessage } from '../../../ui/errors';
import { notify } from '../../../ui/notice-store';
import { roleLabelOf, type Viewer } from '../../../viewer';
import type { TeamMember } from '../reports-api';
import { AssignUsersDialog } from './assign-users-dialog';
import { InvitesSection } from './invites-section';
import { CHANGE_OWNER_MUTATION, UNASSIGN_MUTATION, type ReportDetail } from './detail-api';
import type { ReportRules } from './report-rules';


type Pending = { kind: 'remove' | 'owner'; member: TeamMember };

type TeamTabProps = { viewer: Viewer; report: ReportDetail; rules: ReportRules };

/** Set Owner is not offered for suspended users, guests, or users of another organisation. */
function mayOwn(member: TeamMember, organisationID: string): boolean {
  return !member.owner && !member.user.suspended && member.user.role !== 'GUEST_MEMBER' && member.user.organisationID === organisationID;
}

export function TeamTab({ viewer, report, rules }: TeamTabProps) {
  const [assigning, setAssigning] = useState(false);
  const [pending, setPending] = useState<Pending>();
  const [, unassign] = useMutation(UNASSIGN_MUTATION);
  const [, changeOwner] = useMutation(CHANGE_OWNER_MUTATION);
  // Owner first, as the server lists the team.
  const members = [...report.assignedUsers].sort((a, b) => Number(b.owner) - Number(a.owner));

  const runPending = async (): Promise<string | undefined> => {
    if (!pending) return undefined;
    const run = pending.kind === 'remove' ? unassign : changeOwner;
    const result = await run({ id: report.id, userID: pending.member.user.id });
    if (result.error) return errorMessage(result.error);
    notify(pending.kind === 'remove' ? 'Successfully removed user' : 'Successfully changed owner to user');
    return undefined;
  };

  return (
    <div className="stack">
      <section className="card card--flush stack" aria-labelledby="team-title">
        <div className="card__header">
          <h2 id="team-title" className="card__title">
            Assigned Users
          </h2>
          {rules.canManageTeam && (
            <button type="button" className="button button--small" onClick={() => setAssigning(true)}>
              Assign Users
            </button>
          )}
        </div>
        <div className="table-scroll">
          <table className="table table--cards">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Organisation</th>
                {rules.canManageTeam && (
                  <ActionsHeader />
                )}
              </tr>
            </thead>
            <tbody>
              {members.map((member) => (
                <tr key={member.user.id}>
                  <td data-label="Name" className="team-name">
                    {`${member.user.firstName} ${member.user.lastName}`.trim() || member.user.email}
                    {member.owner && <Badge tone="accent">Owner</Badge>}
                    {member.user.suspended && <Badge tone="negative">Suspended</Badge>}
                  </td>
                  <td data-label="Email">{member.user.email}</td>
                  <td data-label="Role">{roleLabelOf(member.user.role)}</td>
                  <td data-label="Organisation">{member.user.organisationName ?? '–'}</td>
                  {rules.canManageTeam && (
                    <td className="table__actions">
                      <div className="row-actions">
                        {mayOwn(member, report.submissionForm.organisationID) && (
                          <button type="button" className="button button--small button--secondary" onClick={() => setPending({ kind: 'owner', member })}>
                            Set Owner
                          </button>
                        )}
                        {member.user.id !== viewer.id && (
                          <button type="button" className="button button--small button--secondary" onClick={() => setPending({ kind: 'remove', member })}>
                            Remove
                          </button>
                        )}
                      </div>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {assigning && <AssignUsersDialog reportID={report.id} onClose={() => setAssigning(false)} />}
        {pending && (
          <ConfirmDialog
            action={pending.kind === 'remove' ? 'remove' : 'change owner to'}
            name="user"
            title={pending.kind === 'remove' ? 'Remove User' : 'Change Owner'}
            onConfirm={runPending}
            onClose={() => setPending(undefined)}
          />
        )}
      </section>
      {rules.canInvite && <InvitesSection reportID={report.id} />}
    </div>
  );
}
