import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { LEGAL_HOLD_LABEL } from '../../../../../../api/shared/retention';
import { formatDateTime } from '../../../../lib/format';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorMessage } from '../../../ui/errors';
import { notify } from '../../../ui/notice-store';
import { can, isOrganisationManager, isSuperAdmin, type Viewer } from '../../../viewer';
import type { ReportDetail } from './detail-api';
import './legal-hold-panel.css';

// Retention and legal hold (docs/decisions/052-retention.md): when the report will be deleted, and
// the hold that stops it. The hold is for owners and admins of the report's organisation and super
// admins; the server decides in the end.

type Retention = { legalHold: boolean; deletionDueAt: string | null };

const FIELDS = 'id legalHold deletionDueAt';
const RETENTION_QUERY = `query ReportRetention($id: ID!) { reportSubmissionGet(id: $id) { ${FIELDS} } }`;
const HOLD_MUTATION = `mutation ReportLegalHold($id: ID!, $hold: Boolean!) { reportSubmissionLegalHold(id: $id, hold: $hold) { ${FIELDS} } }`;

export const LEGAL_HOLD_ON_TEXT = 'The report is on legal hold';
export const LEGAL_HOLD_OFF_TEXT = 'The legal hold is released';

const mayHold = (viewer: Viewer, report: ReportDetail) =>
  can(viewer, 'ReportSubmissionLegalHold') && (isSuperAdmin(viewer) || (isOrganisationManager(viewer) && viewer.organisation?.id === report.submissionForm.organisationID));

export function LegalHoldPanel({ viewer, report }: { viewer: Viewer; report: ReportDetail }) {
  const [result, refetch] = useQuery<{ reportSubmissionGet: Retention }>({ query: RETENTION_QUERY, variables: { id: report.id } });
  const [, setHold] = useMutation(HOLD_MUTATION);
  const [confirming, setConfirming] = useState(false);
  const retention = result.data?.reportSubmissionGet;
  const holder = mayHold(viewer, report);
  // Nothing scheduled and nothing this viewer may change: no panel.
  if (!holder && !retention?.deletionDueAt) return null;

  const confirm = async () => {
    const hold = !retention?.legalHold;
    const outcome = await setHold({ id: report.id, hold });
    if (outcome.error) return errorMessage(outcome.error);
    notify(hold ? LEGAL_HOLD_ON_TEXT : LEGAL_HOLD_OFF_TEXT);
    refetch({ requestPolicy: 'network-only' });
    return undefined;
  };

  return (
    <section className="card stack" aria-labelledby="retention-title">
      <h2 id="retention-title" className="card__title">
        Retention
      </h2>
      <ErrorBanner message={errorMessage(result.error)} />
      {retention === undefined && !result.error && <p className="muted">Loading…</p>}
      {retention && (
        <dl className="facts">
          <div>
            <dt>Deletion due</dt>
            <dd>{retention.deletionDueAt ? (formatDateTime(retention.deletionDueAt) ?? retention.deletionDueAt) : retention.legalHold ? 'Not while on legal hold' : 'Not scheduled'}</dd>
          </div>
        </dl>
      )}
      {retention && holder && (
        <label className="legal-hold-switch">
          <input type="checkbox" role="switch" checked={retention.legalHold} onChange={() => setConfirming(true)} />
          <span>{LEGAL_HOLD_LABEL}</span>
        </label>
      )}
      {confirming && retention && (
        <ConfirmDialog
          action={retention.legalHold ? 'release the legal hold on' : 'put a legal hold on'}
          name="report"
          question={
            retention.legalHold
              ? 'Release the legal hold? Retention applies again: the owners are warned and the report is deleted no sooner than 14 days later.'
              : 'Put this report on legal hold? It will not be deleted by retention until the hold is released.'
          }
          onConfirm={confirm}
          onClose={() => setConfirming(false)}
        />
      )}
    </section>
  );
}
