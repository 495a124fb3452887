import { formatDateTime } from '../../../../lib/format';
import { reportDetailPath } from '../../../paths';
import { ActionsHeader } from '../../../ui/actions-header';
import { assigneesText, PriorityBadge, StatusBadge } from '../../../ui/badges';
import { Link } from '../../../ui/link';
import type { ReportRow } from '../reports-api';

export const NOT_CLOSED_FOR_ARCHIVE = 'Cannot archive a report that has not been closed or completed.';
export const ALREADY_DELETED = 'Report has already been deleted';

type ReportTableProps = {
  reports: ReportRow[];
  /** False for super admins: no View action, and the report ID is plain text. */
  canView: boolean;
  canArchive: boolean;
  canUnarchive: boolean;
  /** The owner's: offered on archived reports only (spec §4). */
  canHardDelete: boolean;
  organisationID?: string | undefined;
  onArchive: (report: ReportRow) => void;
  onUnarchive: (report: ReportRow) => void;
  onHardDelete: (report: ReportRow) => void;
};

// Other reports show Archive as unavailable (aria-disabled, so the reason can still be hovered and read).
const archivable = (report: ReportRow) => report.status === 'Closed' || report.status === 'Completed';

export function ReportTable({ reports, canView, canArchive, canUnarchive, canHardDelete, organisationID, onArchive, onUnarchive, onHardDelete }: ReportTableProps) {
  const hasActions = canView || canArchive || canUnarchive || canHardDelete;
  return (
    <div className="table-scroll">
      <table className="table table--cards report-table">
        <thead>
          <tr>
            <th scope="col">Report ID</th>
            <th scope="col">Form</th>
            <th scope="col">Status</th>
            <th scope="col">Priority</th>
            <th scope="col">Assigned Users</th>
            <th scope="col">Tags</th>
            <th scope="col">Completed At</th>
            {hasActions && <ActionsHeader />}
          </tr>
        </thead>
        <tbody>
          {reports.map((report) => {
            const detail = reportDetailPath('overview', report.submissionForm.id, report.id, organisationID);
            return (
              <tr key={report.id}>
                <td data-label="Report ID" className="report-table__id">{canView ? <Link to={detail}>{report.reportID}</Link> : report.reportID}</td>
                <td data-label="Form">{report.submissionForm.name}</td>
                <td data-label="Status">
                  <StatusBadge status={report.status} />
                  {report.archived && <span className="muted report-table__archived">Archived</span>}
                </td>
                <td data-label="Priority">
                  <PriorityBadge priority={report.priority} />
                </td>
                <td data-label="Assigned Users">{assigneesText(report.assignedUsers)}</td>
                <td data-label="Tags">{report.tags.length === 0 ? '–' : report.tags.map((tag) => tag.name).join(', ')}</td>
                <td data-label="Completed At" className="report-table__date">{report.completedAt ? (formatDateTime(report.completedAt) ?? 'N/A') : 'N/A'}</td>
                {hasActions && (
                  <td className="table__actions">
                    <div className="row-actions">
                      {canView && (
                        <Link to={detail} className="button button--small button--secondary">
                          View
                        </Link>
                      )}
                      {canArchive && !report.archived && (
                        <button
                          type="button"
                          className="button button--small button--secondary"
                          aria-disabled={!archivable(report)}
                          title={archivable(report) ? undefined : NOT_CLOSED_FOR_ARCHIVE}
                          onClick={() => archivable(report) && onArchive(report)}
                        >
                          Archive
                        </button>
                      )}
                      {canUnarchive && report.archived && !report.deletedAt && (
                        <button type="button" className="button button--small button--secondary" onClick={() => onUnarchive(report)}>
                          Unarchive
                        </button>
                      )}
                      {canHardDelete && report.archived && (
                        <button
                          type="button"
                          className="button button--small button--secondary"
                          aria-disabled={report.deletedAt !== null}
                          title={report.deletedAt !== null ? ALREADY_DELETED : undefined}
                          onClick={() => report.deletedAt === null && onHardDelete(report)}
                        >
                          Hard Delete
                        </button>
                      )}
                    </div>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
