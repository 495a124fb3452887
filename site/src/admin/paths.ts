// Where each console screen lives (spec section 2). Screens link to each other only through these,
// so the route table and the links cannot drift apart. Super admins working inside one
// organisation get the /organisations variants, which carry the organisation's id.

export const REPORT_TABS = ['overview', 'edit', 'messages', 'uploads', 'team', 'notes', 'activities'] as const;
export type ReportTab = (typeof REPORT_TABS)[number];

const enc = encodeURIComponent;

/** The signed-in user's own settings; the hash picks the tab (spec §2, Settings). */
export function settingsPath(tab?: 'profile' | 'change_password'): string {
  return tab ? `/admin/settings#${tab}` : '/admin/settings';
}

export function dashboardPath(organisationID?: string): string {
  return organisationID ? `/admin/manage/organisations/dashboard/${enc(organisationID)}` : '/admin/dashboard';
}

export function reportListPath(organisationID?: string, tagID?: string): string {
  if (tagID) {
    return organisationID ? `/admin/manage/organisations/tags/reports/${enc(organisationID)}/${enc(tagID)}` : `/admin/manage/tags/reports/${enc(tagID)}`;
  }
  return organisationID ? `/admin/manage/organisations/reports/${enc(organisationID)}` : '/admin/manage/reports';
}

/** The Conversations page: every chat of the reports the viewer may see, or one organisation's for a super admin. */
export function conversationsPath(organisationID?: string): string {
  return organisationID ? `/admin/manage/organisations/report-conversations/${enc(organisationID)}` : '/admin/manage/report-conversations';
}

export function reportDetailPath(tab: ReportTab, reportFormID: string, reportSubmissionID: string, organisationID?: string): string {
  const ids = `${enc(reportFormID)}/${enc(reportSubmissionID)}`;
  return organisationID ? `/admin/manage/organisations/reports/${tab}/${enc(organisationID)}/${ids}` : `/admin/manage/reports/${tab}/${ids}`;
}

export type Screen =
  | { name: 'root' }
  | { name: 'dashboard'; organisationID?: string }
  | { name: 'organisations' }
  | { name: 'report-list'; organisationID?: string; tagID?: string }
  | { name: 'report-detail'; tab: ReportTab; reportFormID: string; reportSubmissionID: string; organisationID?: string }
  | { name: 'conversations'; organisationID?: string }
  | { name: 'settings' }
  | { name: 'not-found' };

function isTab(value: string | undefined): value is ReportTab {
  return (REPORT_TABS as readonly string[]).includes(value ?? '');
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The signed-in screen a path names. Pure: the guards (roles, permissions) are the route table's. */
export function matchScreen(pathname: string): Screen {
  if (pathname === '/admin') return { name: 'root' };
  if (pathname === '/admin/dashboard') return { name: 'dashboard' };
  if (pathname === '/admin/settings') return { name: 'settings' };
  const decoded = pathname.split('/').slice(1).map(decode);
  if (decoded.some((part) => part === undefined || part === '')) return { name: 'not-found' };
  const [admin, manage, ...rest] = decoded as string[];
  if (admin !== 'admin' || manage !== 'manage') return { name: 'not-found' };
  return matchManage(rest);
}

/** The part after /admin/manage/. */
function matchManage(p: string[]): Screen {
  const [a, b, c, d, e, f] = p;
  const n = p.length;
  if (a === 'reports' && n === 1) return { name: 'report-list' };
  if (a === 'reports' && n === 4 && isTab(b)) return { name: 'report-detail', tab: b, reportFormID: c!, reportSubmissionID: d! };
  if (a === 'tags' && b === 'reports' && n === 3) return { name: 'report-list', tagID: c! };
  if (a === 'report-conversations' && n === 1) return { name: 'conversations' };
  if (a !== 'organisations') return { name: 'not-found' };
  if (n === 1) return { name: 'organisations' };
  if (b === 'dashboard' && n === 3) return { name: 'dashboard', organisationID: c! };
  if (b === 'reports' && n === 3) return { name: 'report-list', organisationID: c! };
  if (b === 'reports' && n === 6 && isTab(c)) return { name: 'report-detail', tab: c, organisationID: d!, reportFormID: e!, reportSubmissionID: f! };
  if (b === 'tags' && c === 'reports' && n === 5) return { name: 'report-list', organisationID: d!, tagID: e! };
  if (b === 'report-conversations' && n === 3) return { name: 'conversations', organisationID: c! };
  return { name: 'not-found' };
}
