import { Suspense, type ReactNode } from 'react';
import { accountAccessRoute } from './features/account-access/account-access-routes';
import { LoginPage } from './features/auth/components/login-page';
import { LoginVerifyPage } from './features/auth/components/login-verify-page';
import { twoFactorGate } from './features/auth/two-factor/two-factor-gate';
import { completeSignIn, endSession, recheckSession, refreshViewer } from './features/auth/session-store';
import { onboardingRoute } from './features/onboarding/onboarding-routes';
import { ConversationsPage } from './features/conversations/conversations-page';
import { DashboardPage } from './features/dashboard/dashboard-page';
import { ReportDetailPage } from './features/reports/detail/report-detail-page';
import { ReportListPage } from './features/reports/list/report-list-page';
import { PASSWORD_UPDATED } from './features/settings/settings-api';
import { SettingsPage } from './features/settings/settings-page';
import { SSO_CALLBACK_PATH, SsoCallbackPage } from './features/auth/components/sso-callback-page';
import { matchScreen, organisationsPath, reportDetailPath, usersPath, type Screen } from './paths';
import { navigate, type AdminLocation } from './router';
import { NotFoundPage } from './ui/not-found-page';
import { lazyScreen } from './ui/lazy-screen';
import { can, homePathFor, isGuestMember, isSuperAdmin, type Viewer } from './viewer';

// Which screen a location shows, for a signed-out visitor and for a viewer.
// Pure functions of their inputs, so the rules can be read in one place.

export type RouteResult =
  | { kind: 'page'; layout: 'bare' | 'shell'; element: ReactNode; organisationID?: string }
  | { kind: 'redirect'; to: string; rememberReturnPath?: boolean };

export const ADMIN_ROOT = '/admin';
const BOUNCED_LOGIN = `${ADMIN_ROOT}?bounced=1`;
const LOGIN_VERIFY_PATH = `${ADMIN_ROOT}/login-verify`;
const PASSWORD_CHANGED_LOGIN = `${ADMIN_ROOT}?password_changed=1`;

// Every session ended with the password change (spec §4): the login page says why.
const afterPasswordChange = () => endSession(() => navigate(PASSWORD_CHANGED_LOGIN, { replace: true }));
const afterProfileSave = () => void refreshViewer();
const accountAccessActions = {
  // The reset ended every session of its account; if this browser was signed in as that user, it is signed out.
  onPasswordReset: () => void recheckSession(),
  onVerified: refreshViewer,
};

// The spec's login-type pages: they never bounce to the login screen.
const PUBLIC_PATHS = [
  /^\/admin\/forgot-password$/,
  /^\/admin\/reset-password\/[^/]+$/,
  /^\/admin\/login-verify$/,
  /^\/admin\/verify(?:\/[^/]+)?$/,
  /^\/admin\/(?:confirm-email|cancel-email-change)\/[^/]+$/,
];

// The forms' screens, and above all the builder with its drag-and-drop and editor libraries, are
// separate chunks: the login page and the reports never download them.
const FormsPage = lazyScreen('FormsPage', () => import('./features/forms/forms-page'));
const FormPage = lazyScreen('FormPage', () => import('./features/forms/report-form-page'));
const FormTemplatesPage = lazyScreen('FormTemplatesPage', () => import('./features/form-templates/form-templates-page'));
const ReportInvitesPage = lazyScreen('ReportInvitesPage', () => import('./features/guest-access/report-invites-page'));
const GuestOrganisationsPage = lazyScreen('GuestOrganisationsPage', () => import('./features/guest-access/guest-organisations-page'));
const FormBuilderPage = lazyScreen('FormBuilderPage', () => import('./features/form-builder/form-builder-page'));
const InvitesPage = lazyScreen('InvitesPage', () => import('./features/invites/invites-page'));
const SubscribersPage = lazyScreen('SubscribersPage', () => import('./features/subscribers/subscribers-page'));
const TagsPage = lazyScreen('TagsPage', () => import('./features/tags/tags-page'));
const SavedRepliesPage = lazyScreen('SavedRepliesPage', () => import('./features/saved-replies/saved-replies-page'));
const OrganisationsPage = lazyScreen('OrganisationsPage', () => import('./features/organisations/organisations-page'));
const OrganisationOverviewPage = lazyScreen('OrganisationOverviewPage', () => import('./features/organisations/organisation-overview-page'));
// The settings screen's welcome message uses the form builder's rich text editor (features do not
// import each other, so it is handed over here), loaded with the screen and never before.
const OrganisationEditPage = lazyScreen('OrganisationEditPage', () =>
  Promise.all([import('./features/organisations/organisation-edit-page'), import('./features/form-builder/editor-slots')]).then(([screen, slots]) => ({
    OrganisationEditPage: (props: { viewer: Viewer; organisationID?: string | undefined }) => <screen.OrganisationEditPage {...props} RichTextEditor={slots.RichTextEditor} />,
  })),
);
const AuditLogsPage = lazyScreen('AuditLogsPage', () => import('./features/audit-logs/audit-logs-page'));
const ProductPlansPage = lazyScreen('ProductPlansPage', () => import('./features/onboarding/product-plans-page'));
const PRODUCT_PLANS_PATH = '/admin/manage/product-plans';
const ResourcesPage = lazyScreen('ResourcesPage', () => import('./features/resources/resources-page'));
const UsersPage = lazyScreen('UsersPage', () => import('./features/users/users-page'));
const UserEditPage = lazyScreen('UserEditPage', () => import('./features/users/user-edit-page'));

function LoadingScreen() {
  return (
    <main className="admin-page">
      <p className="muted" role="status">
        Loading…
      </p>
    </main>
  );
}

const chunk = (element: ReactNode) => <Suspense fallback={<LoadingScreen />}>{element}</Suspense>;

function page(layout: 'bare' | 'shell', element: ReactNode, organisationID?: string): RouteResult {
  return organisationID ? { kind: 'page', layout, element, organisationID } : { kind: 'page', layout, element };
}

const notFound = () => page('shell', <NotFoundPage />);

export function resolveSignedOutRoute(location: AdminLocation): RouteResult {
  const onboarding = onboardingRoute(location, completeSignIn);
  if (onboarding) return onboarding;
  if (location.pathname === ADMIN_ROOT) {
    const params = new URLSearchParams(location.search);
    const bounced = params.get('bounced') === '1';
    const notice = params.get('password_changed') === '1' ? PASSWORD_UPDATED : undefined;
    return page('bare', <LoginPage bounced={bounced} notice={notice} />);
  }
  if (location.pathname === SSO_CALLBACK_PATH) {
    return page('bare', <SsoCallbackPage search={location.search} onReturn={() => navigate(ADMIN_ROOT, { replace: true })} />);
  }
  if (location.pathname === LOGIN_VERIFY_PATH) return loginVerifyRoute(location.search);
  const accountAccess = accountAccessRoute(location, null, accountAccessActions);
  if (accountAccess) return accountAccess;
  // Any other address of a login-type page: saying it is not there beats bouncing to the login.
  if (PUBLIC_PATHS.some((pattern) => pattern.test(location.pathname))) return page('bare', <NotFoundPage />);
  return { kind: 'redirect', to: BOUNCED_LOGIN, rememberReturnPath: true };
}

/** The magic link needs both values, else it goes to the login page (spec §2). */
function loginVerifyRoute(search: string): RouteResult {
  const params = new URLSearchParams(search);
  const email = params.get('email');
  const token = params.get('token');
  if (!email || !token) return { kind: 'redirect', to: ADMIN_ROOT };
  return page('bare', <LoginVerifyPage key={token} email={email} token={token} />);
}

export function resolveSignedInRoute(location: AdminLocation, viewer: Viewer, returnPath?: string): RouteResult {
  // A session that owes its two-factor step sees only that step, wherever it is (decision 030).
  const twoFactorScreen = twoFactorGate(viewer);
  if (twoFactorScreen) return page('bare', twoFactorScreen);
  const onboarding = onboardingRoute(location, completeSignIn);
  if (onboarding) return onboarding;
  // Product plans: the super admin's (decision 037).
  if (location.pathname === PRODUCT_PLANS_PATH) return can(viewer, 'ProductPlanCreate') ? page('shell', chunk(<ProductPlansPage />)) : notFound();
  if (location.pathname === LOGIN_VERIFY_PATH) return { kind: 'redirect', to: homePathFor(viewer) };
  // Back from the provider and signed in: on to where a password sign-in goes.
  if (location.pathname === SSO_CALLBACK_PATH) return { kind: 'redirect', to: returnPath ?? homePathFor(viewer) };
  const accountAccess = accountAccessRoute(location, viewer, accountAccessActions);
  if (accountAccess) return accountAccess;
  const screen = matchScreen(location.pathname);
  // A guest member sent where guests may not go lands on their organisations list (spec §2, §6).
  if (isGuestMember(viewer) && !GUEST_SCREENS.includes(screen.name)) return { kind: 'redirect', to: organisationsPath() };
  // The organisation-scoped variants are the super admin's way into one organisation.
  if ('organisationID' in screen && screen.organisationID !== undefined && !isSuperAdmin(viewer)) return isGuestMember(viewer) ? { kind: 'redirect', to: organisationsPath() } : notFound();
  return screenRoute(screen, viewer, location.search, returnPath);
}

type FormScreen = Extract<Screen, { name: 'report-form-list' | 'report-form-create' | 'report-form' | 'form-template-list' | 'form-template-create' | 'form-template-edit' }>;

/** The report forms and form templates: each screen behind its permission (spec §2, §6). */
function formRoute(screen: FormScreen, viewer: Viewer, search: string): RouteResult {
  const orgKey = 'organisationID' in screen ? (screen.organisationID ?? '') : '';
  const org = 'organisationID' in screen && screen.organisationID !== undefined ? { organisationID: screen.organisationID } : {};
  const shell = (element: ReactNode) => page('shell', chunk(element), org.organisationID);
  switch (screen.name) {
    case 'report-form-list':
      if (!can(viewer, 'ReportFormList')) return notFound();
      return shell(<FormsPage key={orgKey} viewer={viewer} {...org} />);
    case 'report-form-create': {
      if (!can(viewer, 'ReportFormCreate')) return notFound();
      // ?template_id= starts the new form from that template (spec §2 Report forms).
      const templateID = new URLSearchParams(search).get('template_id') || undefined;
      return shell(<FormBuilderPage key={`${orgKey}/${templateID ?? ''}`} viewer={viewer} kind="form" {...org} {...(templateID ? { templateID } : {})} />);
    }
    case 'report-form': {
      if (screen.tab === 'edit') {
        if (!can(viewer, 'ReportFormUpdate')) return notFound();
        return shell(<FormBuilderPage key={screen.reportFormID} viewer={viewer} kind="form" reportFormID={screen.reportFormID} {...org} />);
      }
      if (!can(viewer, screen.tab === 'overview' ? 'ReportFormRead' : 'ReportFormNoteList')) return notFound();
      return shell(<FormPage key={screen.reportFormID} viewer={viewer} tab={screen.tab} reportFormID={screen.reportFormID} {...org} />);
    }
    case 'form-template-list':
      if (!can(viewer, 'ReportFormTemplateCreate')) return notFound();
      return shell(<FormTemplatesPage />);
    case 'form-template-create':
      if (!can(viewer, 'ReportFormTemplateCreate')) return notFound();
      return shell(<FormBuilderPage key="new-template" viewer={viewer} kind="template" />);
    case 'form-template-edit':
      if (!can(viewer, 'ReportFormTemplateCreate')) return notFound();
      return shell(<FormBuilderPage key={screen.reportFormTemplateID} viewer={viewer} kind="template" reportFormTemplateID={screen.reportFormTemplateID} />);
  }
}

/**
 * An organisation's overview and settings (spec §2 Organisations, 'Account Settings: Organisation'):
 * owners, admins and members their own (the address without an id), the super admin any (with its id).
 */
function organisationRoute(screen: Extract<Screen, { name: 'organisation-overview' | 'organisation-edit' }>, viewer: Viewer): RouteResult {
  if (isSuperAdmin(viewer) && screen.organisationID === undefined) return { kind: 'redirect', to: organisationsPath() };
  const editing = screen.name === 'organisation-edit';
  if (!can(viewer, editing ? 'OrganisationUpdate' : 'OrganisationRead')) return notFound();
  const key = screen.organisationID ?? '';
  const element = editing ? <OrganisationEditPage key={key} viewer={viewer} organisationID={screen.organisationID} /> : <OrganisationOverviewPage key={key} viewer={viewer} organisationID={screen.organisationID} />;
  return page('shell', chunk(element), screen.organisationID);
}

/** What a guest member may open; the report screens also need their two-factor authentication (below). */
const GUEST_SCREENS: readonly Screen['name'][] = ['root', 'not-found', 'organisations', 'report-invites', 'settings', 'resources', 'report-list', 'report-detail', 'conversations'];

/** Guest members reach reports only with two-factor authentication active; else the organisations list (spec §4). */
const REPORT_SCREENS: readonly Screen['name'][] = ['report-list', 'report-detail', 'conversations'];
const guestWithoutTwoFactor = (viewer: Viewer) => isGuestMember(viewer) && !viewer.twoFactorAuthenticationActivated;

function screenRoute(screen: Screen, viewer: Viewer, search: string, returnPath?: string): RouteResult {
  const home = homePathFor(viewer);
  if (REPORT_SCREENS.includes(screen.name) && guestWithoutTwoFactor(viewer)) return { kind: 'redirect', to: organisationsPath() };
  switch (screen.name) {
    case 'root':
      return { kind: 'redirect', to: returnPath ?? home };
    case 'dashboard':
      // Guest members have no organisation dashboard.
      if (isGuestMember(viewer)) return { kind: 'redirect', to: home };
      return page('shell', <DashboardPage key={screen.organisationID ?? ''} viewer={viewer} organisationID={screen.organisationID} />, screen.organisationID);
    case 'organisations':
      // The super admin's list of every organisation comes with organisation management; anyone
      // else's is the organisations they are a guest of.
      if (isSuperAdmin(viewer)) return page('shell', chunk(<OrganisationsPage />));
      return page('shell', chunk(<GuestOrganisationsPage viewer={viewer} />));
    case 'organisation-overview':
    case 'organisation-edit':
      return organisationRoute(screen, viewer);
    case 'report-invites':
      // Any signed-in user may open it (spec §2).
      return page('shell', chunk(<ReportInvitesPage viewer={viewer} />));
    case 'report-list':
      if (!can(viewer, 'ReportSubmissionList')) return notFound();
      return page(
        'shell',
        <ReportListPage key={`${screen.organisationID ?? ''}/${screen.tagID ?? ''}`} viewer={viewer} organisationID={screen.organisationID} tagID={screen.tagID} />,
        screen.organisationID,
      );
    case 'report-detail': {
      if (!can(viewer, 'ReportSubmissionRead')) return notFound();
      // 'edit' is the overview's alias; Activity Logs need UserActivityList, so without it their address shows the report.
      if (screen.tab === 'activities' && !can(viewer, 'UserActivityList')) {
        return { kind: 'redirect', to: reportDetailPath('overview', screen.reportFormID, screen.reportSubmissionID, screen.organisationID) };
      }
      return page(
        'shell',
        <ReportDetailPage
          key={screen.reportSubmissionID}
          viewer={viewer}
          tab={screen.tab === 'edit' ? 'overview' : screen.tab}
          reportFormID={screen.reportFormID}
          reportSubmissionID={screen.reportSubmissionID}
          organisationID={screen.organisationID}
        />,
        screen.organisationID,
      );
    }
    case 'conversations':
      if (!can(viewer, 'ReportConversationList')) return notFound();
      return page('shell', <ConversationsPage key={screen.organisationID ?? ''} viewer={viewer} organisationID={screen.organisationID} />, screen.organisationID);
    case 'report-form-list':
    case 'report-form-create':
    case 'report-form':
    case 'form-template-list':
    case 'form-template-create':
    case 'form-template-edit':
      return formRoute(screen, viewer, search);
    case 'settings':
      // Any signed-in user, guest members included (spec §2).
      return page('shell', <SettingsPage onProfileSaved={afterProfileSave} onPasswordChanged={afterPasswordChange} />);
    case 'users':
    case 'user-create':
    case 'user-edit':
      return userRoute(screen, viewer);
    case 'resources':
      // Any signed-in user, guest members included, whatever their two-factor state (spec §2).
      return page('shell', chunk(<ResourcesPage viewer={viewer} />));
    case 'subscribers':
    case 'tags':
    case 'saved-replies':
      return workspaceRoute(screen, viewer);
    case 'not-found':
      return notFound();
    case 'audit-logs':
      // Members and guests have no audit log: they are sent home.
      if (!can(viewer, 'UserActivityList')) return { kind: 'redirect', to: home };
      return page(
        'shell',
        chunk(<AuditLogsPage key={`${screen.organisationID ?? ''}/${screen.parentAuditLogID ?? ''}`} viewer={viewer} organisationID={screen.organisationID} parentAuditLogID={screen.parentAuditLogID} />),
        screen.organisationID,
      );
    case 'invites':
      // Members (and guests) are sent home: they cannot invite (spec §6).
      if (!can(viewer, 'OrganisationMemberInviteList')) return { kind: 'redirect', to: home };
      return page('shell', chunk(<InvitesPage key={screen.organisationID ?? ''} viewer={viewer} organisationID={screen.organisationID} />), screen.organisationID);
  }
}

/**
 * Subscribers, Tags and Saved Replies (spec §2, §6: owner and admin see them; decision 051): members
 * and guests are sent home (decision 038), and a super admin works inside one organisation, so without
 * one they go to the list.
 */
function workspaceRoute(screen: Extract<Screen, { name: 'subscribers' | 'tags' | 'saved-replies' }>, viewer: Viewer): RouteResult {
  const managing = screen.name === 'subscribers' ? 'OrganisationEmailSubscriberList' : screen.name === 'tags' ? 'TagCreate' : 'SavedReplyCreate';
  if (!can(viewer, managing)) return { kind: 'redirect', to: homePathFor(viewer) };
  if (isSuperAdmin(viewer) && screen.organisationID === undefined) return { kind: 'redirect', to: organisationsPath() };
  const screens = { subscribers: SubscribersPage, tags: TagsPage, 'saved-replies': SavedRepliesPage };
  const Screen = screens[screen.name];
  return page('shell', chunk(<Screen key={screen.organisationID ?? ''} viewer={viewer} organisationID={screen.organisationID} />), screen.organisationID);
}

type UserScreen = Extract<Screen, { name: 'users' | 'user-create' | 'user-edit' }>;

/** Users (spec §2): members are sent away; the lists by role are the super admin's. */
function userRoute(screen: UserScreen, viewer: Viewer): RouteResult {
  if (!can(viewer, 'UserList')) return { kind: 'redirect', to: homePathFor(viewer) };
  const org = screen.organisationID;
  const shell = (element: ReactNode) => page('shell', chunk(element), org);
  switch (screen.name) {
    case 'users':
      if (screen.roleType && !isSuperAdmin(viewer)) return { kind: 'redirect', to: usersPath() };
      return shell(<UsersPage key={`${org ?? ''}/${screen.roleType ?? ''}`} viewer={viewer} organisationID={org} roleType={screen.roleType} />);
    case 'user-create':
      if (!can(viewer, 'UserCreate')) return { kind: 'redirect', to: usersPath(org) };
      return shell(<UserEditPage key={`new/${org ?? ''}`} viewer={viewer} organisationID={org} />);
    case 'user-edit':
      if (!can(viewer, 'UserUpdate')) return { kind: 'redirect', to: usersPath(org) };
      return shell(<UserEditPage key={screen.userID} viewer={viewer} userID={screen.userID} organisationID={org} />);
  }
}
