import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { LEGAL_CLOCK_STATE_LABELS, type LegalClockState } from '../../../../../../api/shared/legal-clocks';
import { formatDateTime } from '../../../../lib/format';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorMessage } from '../../../ui/errors';
import { notify } from '../../../ui/notice-store';
import { can, isGuestMember, type Viewer } from '../../../viewer';
import type { ReportDetail } from './detail-api';
import './legal-clocks-panel.css';

// 'Legal deadlines' (docs/decisions/050-legal-clocks.md): acknowledge within 7 days, feedback within
// 3 months. Each clock's state is written out in words; the colour only repeats it.

type LegalClocks = {
  acknowledgeBy: string;
  acknowledgedAt: string | null;
  acknowledgeState: LegalClockState;
  feedbackBy: string;
  feedbackAt: string | null;
  feedbackState: LegalClockState;
};

const FIELDS = 'id legalClocks { acknowledgeBy acknowledgedAt acknowledgeState feedbackBy feedbackAt feedbackState }';
const CLOCKS_QUERY = `query ReportLegalClocks($id: ID!) { reportSubmissionGet(id: $id) { ${FIELDS} } }`;
const FEEDBACK_MUTATION = `mutation ReportFeedbackGiven($id: ID!) { reportSubmissionFeedbackGiven(id: $id) { ${FIELDS} } }`;

export const FEEDBACK_RECORDED_TEXT = 'Feedback has been recorded';

/** Only the report's team records feedback, never a guest: the server's rule, mirrored. */
const mayRecordFeedback = (viewer: Viewer, report: ReportDetail) =>
  !isGuestMember(viewer) && can(viewer, 'ReportSubmissionUpdate') && report.assignedUsers.some((member) => member.user.id === viewer.id);

export function LegalClocksPanel({ viewer, report }: { viewer: Viewer; report: ReportDetail }) {
  const [result, refetch] = useQuery<{ reportSubmissionGet: { legalClocks: LegalClocks | null } }>({ query: CLOCKS_QUERY, variables: { id: report.id } });
  const [, recordFeedback] = useMutation(FEEDBACK_MUTATION);
  const [confirming, setConfirming] = useState(false);
  const clocks = result.data?.reportSubmissionGet.legalClocks;
  // The organisation has legal deadlines off: nothing to show.
  if (clocks === null) return null;

  const confirm = async () => {
    const outcome = await recordFeedback({ id: report.id });
    if (outcome.error) return errorMessage(outcome.error);
    notify(FEEDBACK_RECORDED_TEXT);
    refetch({ requestPolicy: 'network-only' });
    return undefined;
  };

  return (
    <section className="card stack" aria-labelledby="legal-clocks-title">
      <h2 id="legal-clocks-title" className="card__title">
        Legal deadlines
      </h2>
      <ErrorBanner message={errorMessage(result.error)} />
      {clocks === undefined && !result.error && <p className="muted">Loading…</p>}
      {clocks && (
        <dl className="legal-clocks">
          <Clock label="Acknowledge by" deadline={clocks.acknowledgeBy} doneLabel="Acknowledged" doneAt={clocks.acknowledgedAt} state={clocks.acknowledgeState} />
          <Clock label="Feedback by" deadline={clocks.feedbackBy} doneLabel="Feedback given" doneAt={clocks.feedbackAt} state={clocks.feedbackState} />
        </dl>
      )}
      {clocks && !clocks.feedbackAt && mayRecordFeedback(viewer, report) && (
        <div className="actions">
          <button type="button" className="button button--secondary" onClick={() => setConfirming(true)}>
            Record feedback given
          </button>
        </div>
      )}
      {confirming && (
        <ConfirmDialog
          action="record feedback given for"
          name="report"
          question="Has the reporter been given feedback on this report? This is recorded now and cannot be undone."
          onConfirm={confirm}
          onClose={() => setConfirming(false)}
        />
      )}
    </section>
  );
}

type ClockProps = { label: string; deadline: string; doneLabel: string; doneAt: string | null; state: LegalClockState };

function Clock({ label, deadline, doneLabel, doneAt, state }: ClockProps) {
  return (
    <div className="legal-clock">
      <dt>{label}</dt>
      <dd>
        <span>{formatDateTime(deadline) ?? deadline}</span>{' '}
        <span className={`legal-clock__state legal-clock__state--${state}`}>{LEGAL_CLOCK_STATE_LABELS[state]}</span>
        {doneAt && <span className="legal-clock__done muted">{`${doneLabel} ${formatDateTime(doneAt) ?? doneAt}`}</span>}
      </dd>
    </div>
  );
}
