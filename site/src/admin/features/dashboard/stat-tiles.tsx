import type { ReportStats } from './dashboard-api';

const TILES: { key: keyof ReportStats; label: string; average?: keyof ReportStats }[] = [
  { key: 'totalReports', label: 'Reports Received', average: 'newReportsDailyAverage' },
  { key: 'newReports', label: 'New Reports' },
  { key: 'assignedReports', label: 'Assigned Reports' },
  { key: 'closedReports', label: 'Closed/Completed Reports', average: 'closedReportsDailyAverage' },
];

export function StatTiles({ stats }: { stats: ReportStats | undefined }) {
  return (
    <ul className="stat-tiles" aria-busy={stats === undefined}>
      {TILES.map((tile) => (
        <li key={tile.key} className="stat-tile">
          <span className="stat-tile__label">{tile.label}</span>
          <span className="stat-tile__value">{stats ? stats[tile.key] : '–'}</span>
          {stats && tile.average && <span className="stat-tile__note muted">{`${stats[tile.average]} per day`}</span>}
        </li>
      ))}
    </ul>
  );
}
