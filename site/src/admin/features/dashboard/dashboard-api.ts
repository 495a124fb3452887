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

export type DateRange = { from: string; to: string };

/** Today in the viewer's calendar, as YYYY-MM-DD (the date input's own format). */
export function todayIso(now: Date = new Date()): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}

export const FUTURE_DATE = 'Date cannot be in the future';
export const DATE_ORDER = 'From date cannot be after To date';

/** A problem with the chosen range, or undefined when it can be asked for. */
export function rangeProblem(range: DateRange, today: string = todayIso()): string | undefined {
  if ((range.from && range.from > today) || (range.to && range.to > today)) return FUTURE_DATE;
  if (range.from && range.to && range.from > range.to) return DATE_ORDER;
  return undefined;
}

/** The GraphQL dateFilter for a range; null when neither end is set. */
export function dateFilterOf(range: DateRange): { from: string | null; to: string | null } | null {
  if (!range.from && !range.to) return null;
  return { from: range.from || null, to: range.to || null };
}
