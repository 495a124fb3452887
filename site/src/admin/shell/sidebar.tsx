import { useStore } from '../../lib/use-store';
import {
  auditLogsPath,
  conversationsPath,
  dashboardPath,
  formTemplateListPath,
  invitesPath,
  organisationOverviewPath,
  organisationsPath,
  reportFormListPath,
  reportInvitesPath,
  reportListPath,
  RESOURCES_PATH,
  settingsPath,
  savedRepliesPath,
  subscribersPath,
  tagsPath,
  USER_ROLE_TYPES,
  usersPath,
  usersRolePath,
} from '../paths';
import { $location } from '../router';
import { Link } from '../ui/link';
import { can, isGuestMember, isSuperAdmin, type Viewer } from '../viewer';
import type { GuestAccessStats } from './shell-data';

type SidebarProps = {
  viewer: Viewer;
  /** The organisation a super admin is working inside, if any. */
  organisationID?: string;
  open: boolean;
  unassignedReports?: number;
  /** The reporters' messages nobody on the team has read yet, for the Conversations badge. */
  unreadMessages?: number;
  /** The Guest Access counts; the section shows only while either is above nought. */
  guestAccess?: GuestAccessStats | undefined;
  signingOut: boolean;
  onSignOut: () => void;
};

type Item = { label: string; to: string; active: (pathname: string) => boolean; badge?: { count: number; label: string }; sub?: boolean };

/**
 * Only screens that exist are linked (the rest of the Manage section joins as it is built), so the
 * menu never leads nowhere. Resources close the section for every signed-in user (spec §2).
 */
function activityItems(viewer: Viewer, organisationID: string | undefined, unassignedReports: number | undefined, unreadMessages: number | undefined): Item[] {
  const resources: Item = { label: 'Resources', to: RESOURCES_PATH, active: (pathname) => pathname === RESOURCES_PATH };
  // A guest reaches reports only with two-factor active (decision 032): no links that would only turn them back.
  if (isGuestMember(viewer) && !viewer.twoFactorAuthenticationActivated) return [resources];
  const items: Item[] = [];
  if (!isGuestMember(viewer)) {
    const to = dashboardPath(organisationID);
    items.push({ label: 'Dashboard', to, active: (pathname) => pathname === to });
  }
  if (can(viewer, 'ReportSubmissionList')) {
    const to = reportListPath(organisationID);
    const item: Item = {
      label: 'Reports',
      to,
      active: (pathname) => pathname === to || /^\/admin\/manage(\/organisations)?\/(reports|tags\/reports)\//.test(pathname),
    };
    if (unassignedReports) item.badge = { count: unassignedReports, label: `${unassignedReports} unassigned` };
    items.push(item);
  }
  if (can(viewer, 'ReportConversationList')) {
    const to = conversationsPath(organisationID);
    const item: Item = { label: 'Conversations', to, active: (pathname) => pathname === to || /^\/admin\/manage(\/organisations)?\/report-conversations(\/|$)/.test(pathname) };
    if (unreadMessages) item.badge = { count: unreadMessages, label: `${unreadMessages} unread` };
    items.push(item);
  }
  return [...items, resources];
}

/** Reporting: the organisation's forms, for owners and admins, and for a super admin inside one organisation. */
function reportingItems(viewer: Viewer, organisationID: string | undefined): Item[] {
  if (!can(viewer, 'ReportFormList') || (isSuperAdmin(viewer) && organisationID === undefined)) return [];
  const to = reportFormListPath(organisationID);
  return [{ label: 'Forms', to, active: (pathname) => pathname === to || /^\/admin\/manage(\/organisations)?\/report-forms\//.test(pathname) }];
}

/** Manage, in the spec's order: Profile, Users, Organisations, Form Templates, Subscribers, Invites, Tags, the super admin's Product Plans, and Audit Logs last. */
function manageItems(viewer: Viewer, organisationID?: string): Item[] {
  const profile = settingsPath();
  const items: Item[] = [{ label: 'Profile', to: profile, active: (pathname) => pathname === profile }, ...userItems(viewer, organisationID)];
  if (can(viewer, 'OrganisationList')) {
    const to = organisationsPath();
    items.push({ label: 'Organisations', to, active: (pathname) => pathname === to || /^\/admin\/manage\/organisations\/(overview|edit)\//.test(pathname) });
  }
  if (can(viewer, 'ReportFormTemplateCreate')) {
    const to = formTemplateListPath();
    items.push({ label: 'Form Templates', to, active: (pathname) => pathname === to || pathname.startsWith(`${to}/`) });
  }
  items.push(...workspaceItem(viewer, organisationID, 'Subscribers', 'OrganisationEmailSubscriberList', subscribersPath));
  items.push(...inviteItems(viewer, organisationID));
  items.push(...workspaceItem(viewer, organisationID, 'Tags', 'TagCreate', tagsPath));
  items.push(...workspaceItem(viewer, organisationID, 'Saved Replies', 'SavedReplyCreate', savedRepliesPath));
  if (can(viewer, 'ProductPlanCreate')) items.push({ label: 'Product Plans', to: '/admin/manage/product-plans', active: (pathname) => pathname === '/admin/manage/product-plans' });
  items.push(...auditLogItems(viewer, organisationID));
  return items;
}

/** Subscribers and Tags: owners and admins, and a super admin inside one organisation (spec §6; members hold TagList only for the reports' filter). */
function workspaceItem(viewer: Viewer, organisationID: string | undefined, label: string, permission: 'OrganisationEmailSubscriberList' | 'TagCreate' | 'SavedReplyCreate', path: (organisationID?: string) => string): Item[] {
  if (!can(viewer, permission) || (isSuperAdmin(viewer) && organisationID === undefined)) return [];
  const to = path(organisationID);
  return [{ label, to, active: (pathname) => pathname === to }];
}

/** Manage's Invites, for owners and admins, and for a super admin (inside one organisation, its invites). */
function inviteItems(viewer: Viewer, organisationID: string | undefined): Item[] {
  if (!can(viewer, 'OrganisationMemberInviteList')) return [];
  const to = invitesPath(organisationID);
  return [{ label: 'Invites', to, active: (pathname) => pathname === to }];
}

/** Manage's Audit Logs, for owners and admins, and for a super admin: across organisations, or inside one its own. */
function auditLogItems(viewer: Viewer, organisationID: string | undefined): Item[] {
  if (!can(viewer, 'UserActivityList')) return [];
  const to = auditLogsPath(organisationID);
  return [{ label: 'Audit Logs', to, active: (pathname) => pathname === to || pathname.startsWith(`${to}/`) }];
}

/** Users, and for a super admin outside any organisation its role sub-items (spec §2 Sidebar). */
const USER_ROLE_LABELS = { SuperAdmin: 'Super Admins', OrganisationOwner: 'Owners', OrganisationAdmin: 'Admins', Member: 'Members', GuestMember: 'Guest Members' } as const;
function userItems(viewer: Viewer, organisationID: string | undefined): Item[] {
  if (!can(viewer, 'UserList')) return [];
  const to = usersPath(organisationID);
  const item: Item = { label: 'Users', to, active: (pathname) => pathname === to || /^\/admin\/manage(\/organisations)?\/users\/(create|edit)(\/|$)/.test(pathname) };
  if (!isSuperAdmin(viewer) || organisationID) return [item];
  return [item, ...USER_ROLE_TYPES.map((roleType): Item => ({ label: USER_ROLE_LABELS[roleType], to: usersRolePath(roleType), active: (pathname) => pathname === usersRolePath(roleType), sub: true }))];
}

/** Guest Access (spec §2): Invites with the pending count, and Organisations, for someone who has either. */
function guestAccessItems(stats: GuestAccessStats | undefined): Item[] {
  if (!stats || (stats.guestOrganisationCount === 0 && stats.pendingInvites === 0)) return [];
  const invites = reportInvitesPath();
  const organisations = organisationsPath();
  const item: Item = { label: 'Invites', to: invites, active: (pathname) => pathname === invites };
  if (stats.pendingInvites) item.badge = { count: stats.pendingInvites, label: `${stats.pendingInvites} pending` };
  return [item, { label: 'Organisations', to: organisations, active: (pathname) => pathname === organisations }];
}

/** Account Settings: Organisation, for owners, admins and members (spec §2, §6): their own organisation's page. */
function accountSettingsItems(viewer: Viewer): Item[] {
  if (isSuperAdmin(viewer) || isGuestMember(viewer) || !viewer.organisation || !can(viewer, 'OrganisationRead')) return [];
  const to = organisationOverviewPath();
  return [{ label: 'Organisation', to, active: (pathname) => pathname === to || pathname === '/admin/manage/organisations/edit' }];
}

function SidebarSection({ heading, items, pathname }: { heading: string; items: Item[]; pathname: string }) {
  if (items.length === 0) return null;
  return (
    <div className="sidebar__section">
      <p className="sidebar__heading">{heading}</p>
      <ul className="sidebar__list">
        {items.map((item) => (
          <li key={item.label}>
            <Link to={item.to} className={item.sub ? 'sidebar__link sidebar__link--sub' : 'sidebar__link'} current={item.active(pathname)}>
              <span>{item.label}</span>
              {item.badge !== undefined && (
                <span className="sidebar__badge">
                  <span aria-hidden="true">{item.badge.count}</span>
                  <span className="visually-hidden">{item.badge.label}</span>
                </span>
              )}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The top bar's menu toggle controls the sidebar by this id. */
export const SIDEBAR_ID = 'admin-sidebar';

export function Sidebar({ viewer, organisationID, open, unassignedReports, unreadMessages, guestAccess, signingOut, onSignOut }: SidebarProps) {
  const { pathname } = useStore($location);
  return (
    <nav id={SIDEBAR_ID} className={`sidebar${open ? ' sidebar--open' : ''}`} aria-label="Main">
      <p className="sidebar__title">Admin Control Panel</p>
      {isSuperAdmin(viewer) && organisationID !== undefined && (
        <div className="sidebar__section">
          <Link to={organisationsPath()} className="button button--secondary sidebar__back">
            Back to Organisations
          </Link>
        </div>
      )}
      <SidebarSection heading="Activity" items={activityItems(viewer, organisationID, unassignedReports, unreadMessages)} pathname={pathname} />
      <SidebarSection heading="Reporting" items={reportingItems(viewer, organisationID)} pathname={pathname} />
      <SidebarSection heading="Manage" items={manageItems(viewer, organisationID)} pathname={pathname} />
      <SidebarSection heading="Guest Access" items={guestAccessItems(guestAccess)} pathname={pathname} />
      <SidebarSection heading="Account Settings" items={accountSettingsItems(viewer)} pathname={pathname} />
      <div className="sidebar__section sidebar__section--end">
        <button type="button" className="sidebar__link sidebar__logout" onClick={onSignOut} disabled={signingOut}>
          Logout
        </button>
      </div>
    </nav>
  );
}
