import { useQuery } from 'urql';
import { formatDateTime } from '../../../lib/format';
import { reportDetailPath } from '../../paths';
import { assigneesText, StatusBadge } from '../../ui/badges';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { Link } from '../../ui/link';
import { can, isSuperAdmin, type Viewer } from '../../viewer';
import { PublishBadge } from './form-badges';
import { FORM_REPORTS_QUERY, type FormDetail, type FormReport } from './forms-api';

const LATEST_REPORTS = 10;

type FormOverviewProps = { form: FormDetail; viewer: Viewer; organisationID?: string | undefined };

export function FormOverview({ form, viewer, organisationID }: FormOverviewProps) {
  return (
    <div className="form-overview">
      <PublicLinkCard form={form} />
      <FormInformation form={form} />
      {can(viewer, 'ReportSubmissionList') && <LatestReports form={form} linkReports={!isSuperAdmin(viewer)} organisationID={organisationID} />}
    </div>
  );
}

function PublicLinkCard({ form }: { form: FormDetail }) {
  return (
    <section className="card stack" aria-labelledby="public-link-title">
      <h2 id="public-link-title" className="card__title">
        Public Link
      </h2>
      {form.publicURL ? (
        <>
          <p>
            <a className="public-link" href={form.publicURL} target="_blank" rel="noopener noreferrer">
              {form.publicURL}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </p>
          <p className="muted">Place this link on your intranet or internet site so people can report to you.</p>
        </>
      ) : (
        <p>Your report form has not been published yet.</p>
      )}
    </section>
  );
}

function FormInformation({ form }: { form: FormDetail }) {
  const build = form.currentBuild;
  return (
    <section className="card stack" aria-labelledby="form-information-title">
      <h2 id="form-information-title" className="card__title">
        Form Information
      </h2>
      <dl className="facts">
        <div>
          <dt>Current Build</dt>
          <dd>{build ? `Revision ${build.revision}` : 'None'}</dd>
        </div>
        <div>
          <dt>Build Date</dt>
          <dd>{build ? (formatDateTime(build.createdAt) ?? 'N/A') : 'N/A'}</dd>
        </div>
        <div>
          <dt>Created By</dt>
          <dd className="public-link">{build?.author?.email ?? 'System'}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <PublishBadge state={form.publishState} />
            {form.archived && <span className="muted"> Archived</span>}
          </dd>
        </div>
      </dl>
    </section>
  );
}

type LatestReportsProps = { form: FormDetail; linkReports: boolean; organisationID?: string | undefined };

function LatestReports({ form, linkReports, organisationID }: LatestReportsProps) {
  const [result] = useQuery<{ reportSubmissions: { total: number; list: FormReport[] } }>({
    query: FORM_REPORTS_QUERY,
    variables: { reportFormID: form.id, organisationID: organisationID ?? null, limit: LATEST_REPORTS },
  });
  const reports = result.data?.reportSubmissions.list;
  return (
    <section className="card card--flush stack form-overview__wide" aria-labelledby="form-reports-title">
      <div className="card__header">
        <h2 id="form-reports-title" className="card__title">
          Latest Reports
        </h2>
      </div>
      <ErrorBanner message={errorMessage(result.error)} />
      {reports === undefined ? (
        <p className="muted card__body">{result.error ? '' : 'Loading…'}</p>
      ) : reports.length === 0 ? (
        <p className="muted card__body">No reports found</p>
      ) : (
        <div className="table-scroll">
          <table className="table table--cards">
            <thead>
              <tr>
                <th scope="col">Report ID</th>
                <th scope="col">Internal Ref #</th>
                <th scope="col">Status</th>
                <th scope="col">Assigned Users</th>
                <th scope="col">Last Updated</th>
                <th scope="col">Completed At</th>
              </tr>
            </thead>
            <tbody>
              {reports.map((report) => (
                <tr key={report.id}>
                  <td data-label="Report ID" className="forms-table__name">
                    {linkReports ? <Link to={reportDetailPath('overview', report.submissionForm.id, report.id, organisationID)}>{report.reportID}</Link> : report.reportID}
                  </td>
                  <td data-label="Internal Ref #">{report.internalReference || 'N/A'}</td>
                  <td data-label="Status">
                    <StatusBadge status={report.status} />
                  </td>
                  <td data-label="Assigned Users">{assigneesText(report.assignedUsers)}</td>
                  <td data-label="Last Updated" className="forms-table__date">
                    {formatDateTime(report.updatedAt) ?? 'N/A'}
                  </td>
                  <td data-label="Completed At" className="forms-table__date">
                    {report.completedAt ? (formatDateTime(report.completedAt) ?? 'N/A') : 'N/A'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
