import { formatDateTime } from '../../../lib/format';
import { reportDetailPath, reportListPath } from '../../paths';
import { StatusBadge } from '../../ui/badges';
import { Link } from '../../ui/link';
import type { LatestReport } from './dashboard-api';

type LatestReportsProps = {
  reports: LatestReport[] | undefined;
  /** Super admins open no report from here (spec: no View action for them). */
  linkReports: boolean;
  organisationID?: string | undefined;
};

export function LatestReports({ reports, linkReports, organisationID }: LatestReportsProps) {
  return (
    <section className="card card--flush stack" aria-labelledby="latest-reports-title">
      <div className="card__header">
        <h2 id="latest-reports-title" className="card__title">
          Latest Reports
        </h2>
        <Link to={reportListPath(organisationID)}>View all reports</Link>
      </div>
      {reports === undefined ? (
        <p className="muted card__body">Loading…</p>
      ) : reports.length === 0 ? (
        <p className="muted card__body">No reports found</p>
      ) : (
        <div className="table-scroll">
          <table className="table table--cards">
            <thead>
              <tr>
                <th scope="col">Report ID</th>
                <th scope="col">Form</th>
                <th scope="col">Status</th>
                <th scope="col">Completed At</th>
              </tr>
            </thead>
            <tbody>
              {reports.map((report) => (
                <tr key={report.id}>
                  <td data-label="Report ID">
                    {linkReports ? (
                      <Link to={reportDetailPath('overview', report.submissionForm.id, report.id, organisationID)}>{report.reportID}</Link>
                    ) : (
                      report.reportID
                    )}
                  </td>
                  <td data-label="Form">{report.submissionForm.name}</td>
                  <td data-label="Status">
                    <StatusBadge status={report.status} />
                  </td>
                  <td data-label="Completed At">{report.completedAt ? (formatDateTime(report.completedAt) ?? 'N/A') : 'N/A'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
