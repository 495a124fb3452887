import { useState } from 'react';
import { useMutation } from 'urql';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorMessage } from '../../../ui/errors';
import { notify } from '../../../ui/notice-store';
import { JOIN_MUTATION, type ReportDetail } from './detail-api';

/** Nobody is on the report's team yet: owners and admins may take it on; anyone else is told so. */
export function JoinTeam({ report, canJoin }: { report: ReportDetail; canJoin: boolean }) {
  const [state, join] = useMutation(JOIN_MUTATION);
  const [error, setError] = useState<string>();

  if (!canJoin) {
    return (
      <section className="card stack" aria-labelledby="not-assigned-title">
        <h2 id="not-assigned-title">Not assigned</h2>
        <p className="muted">Nobody is assigned to this report yet. An organisation owner or admin can take it on.</p>
      </section>
    );
  }

  const onJoin = async () => {
    setError(undefined);
    const result = await join({ id: report.id });
    if (result.error) setError(errorMessage(result.error));
    else notify('You have joined the team of this report');
  };

  return (
    <section className="card stack join-team" aria-labelledby="join-team-title">
      <h2 id="join-team-title">Join Team</h2>
      <p>Nobody is assigned to this report yet. Join its team to take ownership: you can then read it in full, reply to the reporter and assign others.</p>
      <ErrorBanner message={error} />
      <div className="actions">
        <button type="button" className="button" onClick={() => void onJoin()} disabled={state.fetching}>
          {state.fetching ? 'Joining…' : 'Join Team'}
        </button>
      </div>
    </section>
  );
}
