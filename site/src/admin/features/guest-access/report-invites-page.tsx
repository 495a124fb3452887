import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { formatDateTime } from '../../../lib/format';
import { TWO_FACTOR_FOR_INVITES } from '../../../../../api/shared/messages';
import { reportListPath } from '../../paths';
import { ActionsHeader } from '../../ui/actions-header';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { Link } from '../../ui/link';
import { ListSection } from './list-section';
import { notify } from '../../ui/notice-store';
import type { Viewer } from '../../viewer';
import { ACCEPT_MUTATION, INVITE_ANSWER_FAILED, INVITES_QUERY, REJECT_MUTATION, STATUS_LABELS, type InviteRow } from './guest-access-api';

const TWO_FACTOR_NOTE_ID = 'invites-two-factor-note';

/**
 * /admin/manage/report-invites: the reports the signed-in user is invited to help with. Accepting
 * needs two-factor authentication active (the server refuses it too); rejecting asks first.
 */
export function ReportInvitesPage({ viewer }: { viewer: Viewer }) {
  const [list, refetch] = useQuery<{ guestMemberReportInvites: InviteRow[] }>({ query: INVITES_QUERY });
  const [accepting, accept] = useMutation(ACCEPT_MUTATION);
  const [, reject] = useMutation(REJECT_MUTATION);
  const [rejecting, setRejecting] = useState<InviteRow>();
  const [error, setError] = useState<string>();
  useDocumentTitle(['Report Invites']);
  const twoFactor = viewer.twoFactorAuthenticationActivated;
  const rows = list.data?.guestMemberReportInvites;

  const failure = (problem: { graphQLErrors: { message: string }[] }) => problem.graphQLErrors[0]?.message ?? INVITE_ANSWER_FAILED;

  const onAccept = async (invite: InviteRow) => {
    if (!twoFactor) return;
    setError(undefined);
    const result = await accept({ id: invite.id });
    if (result.error) return setError(failure(result.error));
    notify(`Successfully accepted invite to Report: ${invite.reportID}`);
    refetch({ requestPolicy: 'network-only' });
  };

  const onReject = async (): Promise<string | undefined> => {
    if (!rejecting) return undefined;
    const result = await reject({ id: rejecting.id });
    if (result.error) return failure(result.error);
    notify(`Successfully rejected invite to Report: ${rejecting.reportID}`);
    refetch({ requestPolicy: 'network-only' });
    return undefined;
  };

  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>
          Report Invites
        </h1>
      </div>
      {!twoFactor && (
        <p className="alert alert--warning" id={TWO_FACTOR_NOTE_ID}>
          {TWO_FACTOR_FOR_INVITES}
        </p>
      )}
      <ErrorBanner message={error ?? (list.error ? failure(list.error) : undefined)} />
      <ListSection label="Report invites" fetching={list.fetching} count={rows?.length} plural="invites">
        <table className="table table--cards">
          <thead>
            <tr>
              <th scope="col">Report ID</th>
              <th scope="col">Organisation</th>
              <th scope="col">Status</th>
              <th scope="col">Invited At</th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {(rows ?? []).map((invite) => (
              <tr key={invite.id}>
                <td data-label="Report ID">{invite.reportID}</td>
                <td data-label="Organisation">{invite.organisationName}</td>
                <td data-label="Status">{STATUS_LABELS[invite.status]}</td>
                <td data-label="Invited At">{formatDateTime(invite.createdAt) ?? ''}</td>
                <td className="table__actions">
                  <div className="row-actions">
                    {invite.status === 'Opened' && (
                      <>
                        {/* Unavailable without 2FA, yet still focusable, so its reason can be read. */}
                        <button
                          type="button"
                          className="button button--small"
                          aria-disabled={!twoFactor || accepting.fetching}
                          aria-describedby={twoFactor ? undefined : TWO_FACTOR_NOTE_ID}
                          title={twoFactor ? undefined : TWO_FACTOR_FOR_INVITES}
                          onClick={() => void onAccept(invite)}
                        >
                          Accept
                        </button>
                        <button type="button" className="button button--small button--secondary" onClick={() => setRejecting(invite)}>
                          Reject
                        </button>
                      </>
                    )}
                    {invite.status === 'Approved' && twoFactor && (
                      <Link to={reportListPath()} className="button button--small button--secondary">
                        View Reports
                      </Link>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListSection>
      {rejecting && (
        <ConfirmDialog
          action="reject"
          name="invite"
          question={`Are you sure you want to reject invite to Report: ${rejecting.reportID}?`}
          onConfirm={onReject}
          onClose={() => setRejecting(undefined)}
        />
      )}
    </main>
  );
}
