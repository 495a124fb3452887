import { useState } from 'react';
import { useQuery } from 'urql';
import { activityActor, activityDetail, activityLabel, activityWhen, DAY_ONLY_NOTE, type ActivityUser } from '../../../ui/activity-labels';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorMessage } from '../../../ui/errors';
import { Pagination } from '../../../ui/pagination';
import type { ReportDetail } from './detail-api';

// The report's Activity Logs tab (needs UserActivityList): who did what to this report, newest first.

export const ACTIVITIES_QUERY = `query ReportActivities($id: ID!, $limit: Int, $offset: Int) {
  userActivities(objectType: ReportSubmission, objectID: $id, limit: $limit, offset: $offset) {
    total list { id action createdAt dayOnly metadata user { firstName lastName role } } } }`;

type ReportActivity = {
  id: string;
  action: string;
  createdAt: string;
  dayOnly: boolean;
  metadata: Record<string, unknown> | null;
  user: ActivityUser | null;
};

const ACTIVITIES_PAGE_SIZE = 20;
// Every change to the report (and to its notes) writes an entry, so those changes refresh the log.
const ACTIVITIES_CONTEXT = { additionalTypenames: ['ReportSubmission', 'ReportNote'] };

export function ActivitiesTab({ report }: { report: ReportDetail }) {
  const [page, setPage] = useState(1);
  const [result] = useQuery<{ userActivities: { total: number; list: ReportActivity[] } }>({
    query: ACTIVITIES_QUERY,
    variables: { id: report.id, limit: ACTIVITIES_PAGE_SIZE, offset: (page - 1) * ACTIVITIES_PAGE_SIZE },
    context: ACTIVITIES_CONTEXT,
  });
  const activities = result.data?.userActivities;

  return (
    <div className="stack">
      <section className="card card--flush stack" aria-labelledby="activities-title" aria-busy={result.fetching}>
        <div className="card__header">
          <h2 id="activities-title" className="card__title">
            Activity Logs
          </h2>
        </div>
        <ErrorBanner message={errorMessage(result.error)} />
        {activities === undefined && !result.error && <p className="muted card__body">Loading…</p>}
        {activities?.list.length === 0 && <p className="muted card__body">No activity logs found</p>}
        {activities && activities.list.length > 0 && (
          <div className="table-scroll">
            <table className="table table--cards">
              <thead>
                <tr>
                  <th scope="col">Action</th>
                  <th scope="col">User</th>
                  <th scope="col">Date</th>
                </tr>
              </thead>
              <tbody>
                {activities.list.map((activity) => (
                  <ActivityRow key={activity.id} activity={activity} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {activities && (
        <Pagination page={page} pageSize={ACTIVITIES_PAGE_SIZE} total={activities.total} onPage={setPage} label="Activity log pages" />
      )}
    </div>
  );
}

function ActivityRow({ activity }: { activity: ReportActivity }) {
  const detail = activityDetail(activity.action, activity.metadata);
  const actor = activityActor(activity.action, activity.user, activity.metadata);
  return (
    <tr>
      <td data-label="Action">
        {activityLabel(activity.action)}
        {detail && <span className="muted">{` · ${detail}`}</span>}
      </td>
      <td data-label="User">
        {actor.name}
        {actor.role && <span className="muted">{` · ${actor.role}`}</span>}
      </td>
      <td data-label="Date" title={activity.dayOnly ? DAY_ONLY_NOTE : undefined}>
        {activityWhen(activity) || 'N/A'}
      </td>
    </tr>
  );
}
