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

/** Account access (spec §2): reachable signed in or not, since their links arrive by mail. */
export const FORGOT_PASSWORD_PATH = '/admin/forgot-password';
export const VERIFY_ACCOUNT_PATH = '/admin/verify';

export function resetPasswordPath(token: string): string {
  return `/admin/reset-password/${enc(token)}`;
}

export function verifyAccountPath(code?: string): string {
  return code ? `${VERIFY_ACCOUNT_PATH}/${enc(code)}` : VERIFY_ACCOUNT_PATH;
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

/** The form page's tabs; 'edit' is the builder's screen, the other two are this feature's. */
export const REPORT_FORM_TABS = ['overview', 'edit', 'internal-notes'] as const;
export type ReportFormTab = (typeof REPORT_FORM_TABS)[number];

/** The organisation's report forms (spec §2 Report forms). */
export function reportFormListPath(organisationID?: string): string {
  return organisationID ? `/admin/manage/organisations/report-forms/${enc(organisationID)}` : '/admin/manage/report-forms';
}

/** The builder for a new form; a template's id starts it from that template. */
export function reportFormCreatePath(organisationID?: string, templateID?: string): string {
  const path = organisationID ? `/admin/manage/organisations/report-forms/create/${enc(organisationID)}` : '/admin/manage/report-forms/create';
  return templateID ? `${path}?template_id=${enc(templateID)}` : path;
}

export function reportFormPath(tab: ReportFormTab, reportFormID: string, organisationID?: string): string {
  return organisationID
    ? `/admin/manage/organisations/report-forms/${tab}/${enc(organisationID)}/${enc(reportFormID)}`
    : `/admin/manage/report-forms/${tab}/${enc(reportFormID)}`;
}

/** Form templates are the super admin's, across organisations (spec §2 Form templates). */
export function formTemplateListPath(): string {
  return '/admin/manage/form-templates';
}

export function formTemplateCreatePath(): string {
  return '/admin/manage/form-templates/create';
}

export function formTemplateEditPath(reportFormTemplateID: string): string {
  return `/admin/manage/form-templates/edit/${enc(reportFormTemplateID)}`;
}

/** Guest Access (spec §2): the signed-in user's report invites, and the organisations they are a guest of. */
export function reportInvitesPath(): string {
  return '/admin/manage/report-invites';
}

export function organisationsPath(): string {
  return '/admin/manage/organisations';
}

/** An organisation's overview and settings (spec §2 Organisations); without an id, the viewer's own organisation. */
export function organisationOverviewPath(organisationID?: string): string {
  return organisationID ? `/admin/manage/organisations/overview/${enc(organisationID)}` : '/admin/manage/organisations/overview';
}

export function organisationEditPath(organisationID?: string): string {
  return organisationID ? `/admin/manage/organisations/edit/${enc(organisationID)}` : '/admin/manage/organisations/edit';
}

/** The users lists by role (spec §2 Users), the super admin's; the address carries the spec's role names. */
export const USER_ROLE_TYPES = ['SuperAdmin', 'OrganisationOwner', 'OrganisationAdmin', 'Member', 'GuestMember'] as const;
export type UserRoleType = (typeof USER_ROLE_TYPES)[number];

/** Users of the viewer's organisation, or of one organisation for a super admin. */
export function usersPath(organisationID?: string): string {
  return organisationID ? `/admin/manage/organisations/users/${enc(organisationID)}` : '/admin/manage/users';
}

/** One role's users across every organisation (super admin). */
export function usersRolePath(roleType: UserRoleType): string {
  return `/admin/manage/users/${enc(roleType)}`;
}

export function userCreatePath(organisationID?: string): string {
  return organisationID ? `/admin/manage/organisations/users/create/${enc(organisationID)}` : '/admin/manage/users/create';
}

export function userEditPath(userID: string, organisationID?: string): string {
  return organisationID ? `/admin/manage/organisations/users/edit/${enc(organisationID)}/${enc(userID)}` : `/admin/manage/users/edit/${enc(userID)}`;
}

/** Invites (spec §2 Invites) and the organisation variant. */
export function invitesPath(organisationID?: string): string {
  return organisationID ? `/admin/manage/organisations/invites/${enc(organisationID)}` : '/admin/manage/invites';
}

/** The organisation's email subscriber (spec §2 Subscribers) and the organisation variant. */
export function subscribersPath(organisationID?: string): string {
  return organisationID ? `/admin/manage/organisations/subscribers/${enc(organisationID)}` : '/admin/manage/subscribers';
}

/** The organisation's tags (spec §2 Tags) and the organisation variant; each tag's reports are reportListPath's. */
export function tagsPath(organisationID?: string): string {
  return organisationID ? `/admin/manage/organisations/tags/${enc(organisationID)}` : '/admin/manage/tags';
}

/** The organisation's saved replies (decision 051) and the organisation variant. */
export function savedRepliesPath(organisationID?: string): string {
  return organisationID ? `/admin/manage/organisations/saved-replies/${enc(organisationID)}` : '/admin/manage/saved-replies';
}

/** Help videos and documents, for every signed-in user (spec §2 Resources). */
export const RESOURCES_PATH = '/admin/resources';

/** The audit log (spec §2 Audit logs); with a parent's id, that group's entries. The organisation variant carries its id first. */
export function auditLogsPath(organisationID?: string, parentAuditLogID?: string): string {
  const base = organisationID ? `/admin/manage/organisations/audit-logs/${enc(organisationID)}` : '/admin/manage/audit-logs';
  return parentAuditLogID ? `${base}/${enc(parentAuditLogID)}` : base;
}

export type Screen =
  | { name: 'root' }
  | { name: 'report-invites' }
  | { name: 'dashboard'; organisationID?: string }
  | { name: 'organisations' }
  | { name: 'report-list'; organisationID?: string; tagID?: string }
  | { name: 'report-detail'; tab: ReportTab; reportFormID: string; reportSubmissionID: string; organisationID?: string }
  | { name: 'conversations'; organisationID?: string }
  | { name: 'report-form-list'; organisationID?: string }
  | { name: 'report-form-create'; organisationID?: string }
  | { name: 'report-form'; tab: ReportFormTab; reportFormID: string; organisationID?: string }
  | { name: 'form-template-list' }
  | { name: 'form-template-create' }
  | { name: 'form-template-edit'; reportFormTemplateID: string }
  | { name: 'settings' }
  | { name: 'organisation-overview'; organisationID?: string }
  | { name: 'organisation-edit'; organisationID?: string }
  | { name: 'users'; organisationID?: string; roleType?: UserRoleType }
  | { name: 'user-create'; organisationID?: string }
  | { name: 'user-edit'; userID: string; organisationID?: string }
  | { name: 'invites'; organisationID?: string }
  | { name: 'subscribers'; organisationID?: string }
  | { name: 'tags'; organisationID?: string }
  | { name: 'saved-replies'; organisationID?: string }
  | { name: 'resources' }
  | { name: 'audit-logs'; organisationID?: string; parentAuditLogID?: string }
  | { name: 'not-found' };

function isTab(value: string | undefined): value is ReportTab {
  return (REPORT_TABS as readonly string[]).includes(value ?? '');
}

function isFormTab(value: string | undefined): value is ReportFormTab {
  return (REPORT_FORM_TABS as readonly string[]).includes(value ?? '');
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
  if (pathname === RESOURCES_PATH) return { name: 'resources' };
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
  if (a === 'report-invites' && n === 1) return { name: 'report-invites' };
  if (a === 'report-forms' && n === 1) return { name: 'report-form-list' };
  if (a === 'report-forms' && n === 2 && b === 'create') return { name: 'report-form-create' };
  if (a === 'report-forms' && n === 3 && isFormTab(b)) return { name: 'report-form', tab: b, reportFormID: c! };
  if (a === 'form-templates') return matchTemplates(p.slice(1));
  if (a === 'users') return matchUsers(p.slice(1));
  if (a === 'invites' && n === 1) return { name: 'invites' };
  if (a === 'subscribers' && n === 1) return { name: 'subscribers' };
  if (a === 'tags' && n === 1) return { name: 'tags' };
  if (a === 'saved-replies' && n === 1) return { name: 'saved-replies' };
  if (a === 'audit-logs' && n <= 2) return b === undefined ? { name: 'audit-logs' } : { name: 'audit-logs', parentAuditLogID: b };
  if (a !== 'organisations') return { name: 'not-found' };
  if (n === 1) return { name: 'organisations' };
  if ((b === 'overview' || b === 'edit') && n <= 3) {
    const name = b === 'overview' ? 'organisation-overview' : 'organisation-edit';
    return c === undefined ? { name } : { name, organisationID: c };
  }
  if (b === 'users' && n === 3) return { name: 'users', organisationID: c! };
  if (b === 'users' && n === 4 && c === 'create') return { name: 'user-create', organisationID: d! };
  if (b === 'users' && n === 5 && c === 'edit') return { name: 'user-edit', organisationID: d!, userID: e! };
  if (b === 'invites' && n === 3) return { name: 'invites', organisationID: c! };
  if (b === 'subscribers' && n === 3) return { name: 'subscribers', organisationID: c! };
  if (b === 'tags' && n === 3) return { name: 'tags', organisationID: c! };
  if (b === 'saved-replies' && n === 3) return { name: 'saved-replies', organisationID: c! };
  if (b === 'audit-logs' && n === 3) return { name: 'audit-logs', organisationID: c! };
  if (b === 'audit-logs' && n === 4) return { name: 'audit-logs', organisationID: c!, parentAuditLogID: d! };
  if (b === 'dashboard' && n === 3) return { name: 'dashboard', organisationID: c! };
  if (b === 'reports' && n === 3) return { name: 'report-list', organisationID: c! };
  if (b === 'reports' && n === 6 && isTab(c)) return { name: 'report-detail', tab: c, organisationID: d!, reportFormID: e!, reportSubmissionID: f! };
  if (b === 'tags' && c === 'reports' && n === 5) return { name: 'report-list', organisationID: d!, tagID: e! };
  if (b === 'report-conversations' && n === 3) return { name: 'conversations', organisationID: c! };
  if (b === 'report-forms' && n === 3) return { name: 'report-form-list', organisationID: c! };
  if (b === 'report-forms' && n === 4 && c === 'create') return { name: 'report-form-create', organisationID: d! };
  if (b === 'report-forms' && n === 5 && isFormTab(c)) return { name: 'report-form', tab: c, organisationID: d!, reportFormID: e! };
  return { name: 'not-found' };
}

/** The part after /admin/manage/form-templates/. */
function matchTemplates([a, b, ...rest]: string[]): Screen {
  if (rest.length > 0) return { name: 'not-found' };
  if (a === undefined) return { name: 'form-template-list' };
  if (a === 'create' && b === undefined) return { name: 'form-template-create' };
  if (a === 'edit' && b !== undefined) return { name: 'form-template-edit', reportFormTemplateID: b };
  return { name: 'not-found' };
}

/** The part after /admin/manage/users/. */
function matchUsers([a, b, ...rest]: string[]): Screen {
  if (rest.length > 0) return { name: 'not-found' };
  if (a === undefined) return { name: 'users' };
  if (a === 'create' && b === undefined) return { name: 'user-create' };
  if (a === 'edit' && b !== undefined) return { name: 'user-edit', userID: b };
  if (b === undefined && (USER_ROLE_TYPES as readonly string[]).includes(a)) return { name: 'users', roleType: a as UserRoleType };
  return { name: 'not-found' };
}
