import { useState } from 'react';
import { useMutation } from 'urql';
import { downloadFile } from '../../../../lib/download';
import { navigate } from '../../../router';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { errorMessage } from '../../../ui/errors';
import { notify } from '../../../ui/notice-store';
import { homePathFor, isOrganisationManager, type Viewer } from '../../../viewer';
import { CloseReportDialog } from './close-report-dialog';
import { LEAVE_MUTATION, OPEN_MUTATION, type ReportDetail } from './detail-api';
import { EmailReportDialog } from './email-report-dialog';
import type { ReportRules } from './report-rules';

export const UNABLE_TO_OPEN = 'Unable to Open Report, please try again';

type ReportActionsProps = {
  viewer: Viewer;
  report: ReportDetail;
  rules: ReportRules;
  onError: (message: string | undefined) => void;
};

type Open = 'close' | 'email' | 'leave' | undefined;

/** Export, Email, Leave, Re-open and Close Report, each shown only to whom the server allows it. */
export function ReportActions({ viewer, report, rules, onError }: ReportActionsProps) {
  const [open, setOpen] = useState<Open>();
  const [exporting, setExporting] = useState(false);
  // Spec §4: the Export Report button is for organisation owners and admins, not guests.
  const canExport = isOrganisationManager(viewer) && viewer.organisation?.id === report.submissionForm.organisationID;

  const onExport = async () => {
    onError(undefined);
    setExporting(true);
    try {
      const result = await downloadFile(`/api/report-submissions/export/${encodeURIComponent(report.id)}`, `Report ${report.reportID}.html`);
      if (!result.ok) onError(result.message);
    } finally {
      setExporting(false);
    }
  };
  const [reopenState, reopen] = useMutation(OPEN_MUTATION);
  const [, leave] = useMutation(LEAVE_MUTATION);

  const onReopen = async () => {
    onError(undefined);
    const result = await reopen({ id: report.id });
    if (result.error) onError(result.error.graphQLErrors.length ? errorMessage(result.error) : UNABLE_TO_OPEN);
    else notify('Successfully re-opened report');
  };

  const onLeave = async (): Promise<string | undefined> => {
    const result = await leave({ id: report.id });
    if (result.error) return errorMessage(result.error);
    notify('You have left this report');
    navigate(homePathFor(viewer));
    return undefined;
  };

  if (!canExport && !rules.canClose && !rules.canReopen && !rules.canLeave && !rules.canEmail) return null;
  return (
    <div className="actions report-actions">
      {canExport && (
        <button type="button" className="button button--secondary" onClick={() => void onExport()} disabled={exporting}>
          {exporting ? 'Exporting…' : 'Export Report'}
        </button>
      )}
      {rules.canEmail && (
        <button type="button" className="button button--secondary" onClick={() => setOpen('email')}>
          Email Report
        </button>
      )}
      {rules.canLeave && (
        <button type="button" className="button button--secondary" onClick={() => setOpen('leave')}>
          Leave Report
        </button>
      )}
      {rules.canReopen && (
        <button type="button" className="button" onClick={() => void onReopen()} disabled={reopenState.fetching}>
          {reopenState.fetching ? 'Re-opening…' : 'Re-open Report'}
        </button>
      )}
      {rules.canClose && (
        <button type="button" className="button" onClick={() => setOpen('close')}>
          Close Report
        </button>
      )}
      {open === 'close' && <CloseReportDialog reportID={report.id} onClose={() => setOpen(undefined)} />}
      {open === 'email' && <EmailReportDialog reportID={report.id} onClose={() => setOpen(undefined)} />}
      {open === 'leave' && <ConfirmDialog action="leave" name="report" onConfirm={onLeave} onClose={() => setOpen(undefined)} />}
    </div>
  );
}
