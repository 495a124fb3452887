import { useEffect, useRef } from 'react';
import { useSubscription } from 'urql';
import { reportDetailPath, type ReportTab } from '../../../paths';
import { useDocumentTitle } from '../../../ui/document-title';
import { Link } from '../../../ui/link';
import { can, type Viewer } from '../../../viewer';
import { ActivitiesTab } from './activities-tab';
import { UNREAD_SUBSCRIPTION, type ReportDetail } from './detail-api';
import { MessagesTab } from './messages-tab';
import { NotesTab } from './notes-tab';
import { OverviewTab } from './overview-tab';
import type { ReportRules } from './report-rules';
import { TeamTab } from './team-tab';
import { UploadsTab } from './uploads-tab';

type ShownTab = Exclude<ReportTab, 'edit'>;

type ReportTabsProps = {
  viewer: Viewer;
  report: ReportDetail;
  rules: ReportRules;
  tab: ShownTab;
  organisationID?: string | undefined;
};

type TabEntry = { tab: ShownTab; label: string; badge?: number };

function tabEntries(viewer: Viewer, rules: ReportRules, unread: number, uploads: number): TabEntry[] {
  const entries: TabEntry[] = [];
  if (rules.tabs.report) entries.push({ tab: 'overview', label: 'Report' });
  entries.push({ tab: 'team', label: 'Team' });
  if (rules.tabs.messages) entries.push({ tab: 'messages', label: 'Messages', badge: unread });
  if (rules.tabs.uploads) entries.push({ tab: 'uploads', label: 'Uploads', badge: uploads });
  if (rules.tabs.notes) entries.push({ tab: 'notes', label: 'Notes' });
  if (can(viewer, 'UserActivityList')) entries.push({ tab: 'activities', label: 'Activity Logs' });
  return entries;
}

export function ReportTabs({ viewer, report, rules, tab, organisationID }: ReportTabsProps) {
  // The unread count comes live from the chat; the report's own figure stands in until it does.
  const [unread] = useSubscription<{ reportConversationTotalUnreadMessages: number }, number>(
    { query: UNREAD_SUBSCRIPTION, variables: { id: report.id }, pause: !rules.tabs.messages },
    (_previous, data) => data.reportConversationTotalUnreadMessages,
  );
  const entries = tabEntries(viewer, rules, unread.data ?? report.unreadMessages, report.attachmentsCount);
  // A tab the viewer may not open (or a report without chat) shows the first one there is.
  const current = entries.some((entry) => entry.tab === tab) ? tab : (entries[0]?.tab ?? 'team');
  const currentEntry = entries.find((entry) => entry.tab === current);
  // The report's own tab is the report: 'Report ABCDE-12345', then 'Team – Report ABCDE-12345'.
  useDocumentTitle(current === 'overview' ? [`Report ${report.reportID}`] : [currentEntry?.label ?? 'Team', `Report ${report.reportID}`]);
  const nav = useRef<HTMLElement>(null);

  // On a narrow screen the row scrolls: keep the chosen tab in sight, without scrolling the page.
  useEffect(() => {
    const row = nav.current;
    const chosen = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!row || !chosen) return;
    if (chosen.offsetLeft < row.scrollLeft || chosen.offsetLeft + chosen.offsetWidth > row.scrollLeft + row.clientWidth) {
      row.scrollLeft = chosen.offsetLeft - (row.clientWidth - chosen.offsetWidth) / 2;
    }
  }, [current]);

  return (
    <div className="stack">
      <nav ref={nav} className="tabs" aria-label="Report sections">
        {entries.map((entry) => (
          <Link
            key={entry.tab}
            to={reportDetailPath(entry.tab, report.submissionForm.id, report.id, organisationID)}
            className="tabs__tab"
            current={entry.tab === current}
          >
            <span>{entry.label}</span>
            {entry.badge !== undefined && entry.badge > 0 && <span className="tabs__badge">{entry.badge}</span>}
          </Link>
        ))}
      </nav>
      <div className="tab-panel">
        {current === 'overview' && <OverviewTab viewer={viewer} report={report} rules={rules} organisationID={organisationID} />}
        {current === 'team' && <TeamTab viewer={viewer} report={report} rules={rules} />}
        {current === 'messages' && <MessagesTab viewer={viewer} report={report} rules={rules} />}
        {current === 'uploads' && <UploadsTab report={report} />}
        {current === 'notes' && <NotesTab report={report} rules={rules} />}
        {current === 'activities' && <ActivitiesTab report={report} />}
      </div>
    </div>
  );
}
