// The dashboard's calls: the four numbers, the five newest reports, and the live signal.

const STATS_FIELDS = 'totalReports newReports assignedReports closedReports newReportsDailyAverage closedReportsDailyAverage';

export const STATS_QUERY = `query DashboardStats($organisationID: ID, $dateFilter: DateFilterInput) {
  reportStats(organisationID: $organisationID, dateFilter: $dateFilter) { ${STATS_FIELDS} } }`;

/** The tiles now, then on every change in scope. A server without it gets a refresh every 30 s instead. */
export const STATS_SUBSCRIPTION = `subscription DashboardStatsLive($organisationID: ID, $dateFilter: DateFilterInput) {
  reportStats(organisationID: $organisationID, dateFilter: $dateFilter) { ${STATS_FIELDS} } }`;

export const LATEST_QUERY = `query DashboardLatestReports($search: ReportSearchInput) {
  reportSubmissions(search: $search, limit: 5, offset: 0) {
    total list { id reportID status priority completedAt submissionForm { id name } } } }`;

export type ReportStats = {
  totalReports: number;
  newReports: number;
  assignedReports: number;
  closedReports: number;
  newReportsDailyAverage: number;
  closedReportsDailyAverage: number;
};

export type LatestReport = {
  id: string;
  reportID: string;
  status: string;
  priority: string;
  completedAt: string | null;
  submissionForm: { id: string; name: string };
};
