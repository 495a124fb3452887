import { useCallback, useMemo, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { useDocumentTitle } from '../../ui/document-title';
import { errorMessage } from '../../ui/errors';
import { ErrorBanner } from '../../ui/error-banner';
import { useLiveRefresh } from '../../ui/use-live-refresh';
import { isSuperAdmin, type Viewer } from '../../viewer';
import { DateRangeFilter } from '../../ui/date-range-filter';
import { dateFilterOf, rangeProblem, type DateRange } from '../../ui/date-range';
import { LATEST_QUERY, STATS_QUERY, STATS_SUBSCRIPTION, type LatestReport, type ReportStats } from './dashboard-api';
import { LatestReports } from './latest-reports';
import { LegalClockCountsSection } from './legal-clock-counts';
import { StatTiles } from './stat-tiles';
import './dashboard.css';

type DashboardPageProps = {
  viewer: Viewer;
  /** A super admin's organisation dashboard; otherwise the viewer's own scope. */
  organisationID?: string | undefined;
};

type LiveStats = { key: string; stats: ReportStats };

export function DashboardPage({ viewer, organisationID }: DashboardPageProps) {
  useDocumentTitle(['Dashboard']);
  const [range, setRange] = useState<DateRange>({ from: '', to: '' });
  const invalid = rangeProblem(range) !== undefined;
  const dateFilter = dateFilterOf(range);
  const scopeKey = `${organisationID ?? ''}|${dateFilter?.from ?? ''}|${dateFilter?.to ?? ''}`;
  const statsVariables = useMemo(() => ({ organisationID: organisationID ?? null, dateFilter }), [scopeKey]);
  const latestVariables = useMemo(
    () => ({ search: { organisationID: organisationID ?? null, excludeTestReports: true, sortBy: 'DateCreated', sortDir: 'Descending', dateFilter } }),
    [scopeKey],
  );
  const [stats, refetchStats] = useQuery<{ reportStats: ReportStats }>({ query: STATS_QUERY, variables: statsVariables, pause: invalid });
  const [latest, refetchLatest] = useQuery<{ reportSubmissions: { list: LatestReport[] } }>({ query: LATEST_QUERY, variables: latestVariables, pause: invalid });
  // The subscription answers the tiles themselves; the Latest Reports list is fetched again on each change.
  const [liveStats, setLiveStats] = useState<LiveStats>();
  const seen = useRef<string>(undefined);

  const onEvent = useCallback(
    (data?: { reportStats?: ReportStats }) => {
      if (data?.reportStats) {
        setLiveStats({ key: scopeKey, stats: data.reportStats });
        // The first answer is the state on subscribing, which the queries already fetched.
        if (seen.current !== scopeKey) {
          seen.current = scopeKey;
          return;
        }
      } else {
        refetchStats({ requestPolicy: 'network-only' });
      }
      refetchLatest({ requestPolicy: 'network-only' });
    },
    [scopeKey, refetchStats, refetchLatest],
  );
  const live = useLiveRefresh({ subscription: STATS_SUBSCRIPTION, variables: statsVariables, pause: invalid, onEvent });

  const shownStats = liveStats?.key === scopeKey ? liveStats.stats : stats.data?.reportStats;
  const error = errorMessage(stats.error) ?? errorMessage(latest.error);
  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>Dashboard</h1>
        <DateRangeFilter idPrefix="dashboard" legend="Filter by date completed" value={range} onChange={setRange} />
      </div>
      <ErrorBanner message={error} />
      <StatTiles stats={invalid ? undefined : shownStats} />
      <LegalClockCountsSection organisationID={organisationID} />
      <LatestReports reports={latest.data?.reportSubmissions.list} linkReports={!isSuperAdmin(viewer)} organisationID={organisationID} />
      <p className="muted live-note" data-live={live}>
        {live === 'polling' ? 'Figures refresh every 30 seconds.' : 'Figures update live.'}
      </p>
    </main>
  );
}
