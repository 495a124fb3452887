import { useQuery } from 'urql';
import { reportListPath, type ReportTab } from '../../../paths';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorCode, errorMessage } from '../../../ui/errors';
import { useDocumentTitle } from '../../../ui/document-title';
import { Link } from '../../../ui/link';
import { MissingScreen } from '../../../ui/missing-screen';
import type { Viewer } from '../../../viewer';
import { DETAIL_QUERY, type ReportDetail } from './detail-api';
import { JoinTeam } from './join-team';
import { LegalClocksPanel } from './legal-clocks-panel';
import { ReportHeader } from './report-header';
import { reportRules } from './report-rules';
import { ReportTabs } from './report-tabs';
import { useReportLive } from './use-report-live';
import './report-detail.css';

type ReportDetailPageProps = {
  viewer: Viewer;
  tab: Exclude<ReportTab, 'edit'>;
  reportFormID: string;
  reportSubmissionID: string;
  organisationID?: string | undefined;
};

export const REPORT_NOT_FOUND = 'Report Submission is not found';
/**
 * The address names a form the report is not (or no longer) filed under: a link from before the
 * report moved, or a form since removed. The spec's admin-side wording for exactly that.
 */
export const FORM_NOT_FOUND = 'Report Form was not found or no longer exists.';

export function ReportDetailPage({ viewer, tab, reportFormID, reportSubmissionID, organisationID }: ReportDetailPageProps) {
  const [result, reexecute] = useQuery<{ reportSubmissionGet: ReportDetail }>({ query: DETAIL_QUERY, variables: { id: reportSubmissionID } });
  const listPath = reportListPath(organisationID);
  const report = result.data?.reportSubmissionGet;
  useReportLive(reportSubmissionID, report, () => reexecute({ requestPolicy: 'network-only' }));
  const elsewhere = report !== undefined && (report.submissionForm.id !== reportFormID || (organisationID !== undefined && report.submissionForm.organisationID !== organisationID));
  const missing = elsewhere || (!report && errorCode(result.error) === 'NOT_FOUND');
  // A missing report's message, or the current tab when the tabs are shown, names the screen instead.
  const namedElsewhere = missing || (report !== undefined && reportRules(viewer, report).hasTeam);
  useDocumentTitle(namedElsewhere ? null : [report ? `Report ${report.reportID}` : 'Report']);

  if (!report) {
    if (errorCode(result.error) === 'NOT_FOUND') {
      return (
        <main className="admin-page">
          <MissingScreen message={REPORT_NOT_FOUND} returnTo={listPath} returnLabel="Return to Reports" />
        </main>
      );
    }
    return (
      <main className="admin-page stack">
        <ErrorBanner message={errorMessage(result.error)} />
        {!result.error && <p className="muted">Loading…</p>}
      </main>
    );
  }
  // The address names the report's form too; a report reached through another form's path is not there.
  if (elsewhere) {
    return (
      <main className="admin-page">
        <MissingScreen message={FORM_NOT_FOUND} returnTo={listPath} returnLabel="Return to Reports" />
      </main>
    );
  }

  const rules = reportRules(viewer, report);
  return (
    <main className="admin-page stack">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={listPath}>Reports</Link>
        <span aria-hidden="true"> / </span>
        <span>{report.reportID}</span>
      </nav>
      <ErrorBanner message={errorMessage(result.error)} />
      <ReportHeader viewer={viewer} report={report} rules={rules} />
      {rules.hasTeam ? (
        <ReportTabs viewer={viewer} report={report} rules={rules} tab={tab} organisationID={organisationID} />
      ) : (
        <>
          <JoinTeam report={report} canJoin={rules.canJoin} />
          {/* Whoever may take the report on sees how long it has: the clocks run before anyone joins. */}
          {rules.canJoin && <LegalClocksPanel viewer={viewer} report={report} />}
        </>
      )}
    </main>
  );
}
