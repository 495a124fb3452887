import { activityLabel, type ActivityUser } from './activity-labels';

// The Audit Logs pages word each entry as one sentence: 'Jane D. archived the tag "Fraud"'. Every
// action the server records (api/modules/*: recordActivity) has its phrase here; the test beside
// the audit module keeps the two lists together. The report's Activity Logs tab keeps the short
// labels of activity-labels.ts, where the report is already the subject.

export type SentenceEntry = {
  action: string;
  objectType: string;
  metadata?: Record<string, unknown> | null;
  user: ActivityUser | null;
};

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const quoted = (value: string | undefined) => (value ? ` "${value}"` : '');

/** 'the tag "Fraud"', 'the user "Ann Lee"', 'a report': what the entry is about, from the names the log may show. */
export function objectPhrase(entry: SentenceEntry): string {
  const metadata = entry.metadata ?? {};
  const name = text(metadata.name);
  const person = [text(metadata.first_name), text(metadata.last_name)].filter(Boolean).join(' ') || undefined;
  if (entry.action.startsWith('Template')) return `the form template${quoted(name)}`;
  if (entry.action.startsWith('ProductPlan')) return `the product plan${quoted(name)}`;
  if (entry.action.startsWith('ResourceVideo')) return `the help video${quoted(name)}`;
  if (entry.action.startsWith('ResourceDocument')) return `the help document${quoted(name)}`;
  if (entry.action.endsWith('EmailSubscriber')) return `the subscriber${quoted(person)}`;
  if (entry.action.startsWith('SavedReply')) return `the saved reply${quoted(name)}`;
  switch (entry.objectType) {
    case 'Tag':
      return `the tag${quoted(name)}`;
    case 'Organisation':
      return `the organisation${quoted(name)}`;
    case 'ReportForm':
      return `the form${quoted(name)}`;
    case 'User':
      return `the user${quoted(person)}`;
    case 'OnboardInvite':
      return `the invite for${quoted(person) || ' a new user'}`;
    case 'Blob':
      return `the file${quoted(name)}`;
    case 'ReportSubmission':
      return 'a report';
    default:
      return 'their account';
  }
}

// {object} is the entry's object phrase, {name} the name in its metadata.
const PHRASES: Readonly<Record<string, string>> = {
  // Anything that is created, changed or retired
  Create: 'created {object}',
  Update: 'updated {object}',
  Archive: 'archived {object}',
  Unarchive: 'unarchived {object}',
  Delete: 'deleted {object}',
  Suspend: 'suspended {object}',
  Unsuspend: 'unsuspended {object}',
  Kick: 'removed {object} from the organisation',
  Resend: 'resent {object}',
  InviteEmailFailed: 'could not email {object}',
  ChangeAvatar: 'changed the picture of {object}',
  ResourceVideoCreate: 'added {object}',
  ResourceVideoUpdate: 'updated {object}',
  ResourceVideoArchive: 'archived {object}',
  ResourceVideoUnarchive: 'unarchived {object}',
  ResourceDocumentCreate: 'added {object}',
  ResourceDocumentUpdate: 'updated {object}',
  ResourceDocumentArchive: 'archived {object}',
  ResourceDocumentUnarchive: 'unarchived {object}',
  CreateEmailSubscriber: 'added {object}',
  DeleteEmailSubscriber: 'removed {object}',
  TemplateCreate: 'created {object}',
  TemplateUpdate: 'updated {object}',
  TemplateArchive: 'archived {object}',
  TemplateUnarchive: 'unarchived {object}',
  ProductPlanCreate: 'created {object}',
  ProductPlanUpdate: 'updated {object}',
  ProductPlanArchive: 'archived {object}',
  ProductPlanUnarchive: 'unarchived {object}',
  SavedReplyCreate: 'created {object}',
  SavedReplyUpdate: 'updated {object}',
  SavedReplyArchive: 'archived {object}',
  // Forms
  Publish: 'published {object}',
  Unpublish: 'unpublished {object}',
  Lock: 'locked {object}',
  Unlock: 'unlocked {object}',
  Secure: 'changed the password protection of {object}',
  TranslationUpdate: 'reviewed a translation of {object}',
  // Organisations and onboarding
  CreateOrganisation: 'created {object}',
  UpdateLogo: 'changed the logo of {object}',
  ExportOrganisations: 'exported the organisations',
  OrganisationSignUp: 'signed up {object}',
  OnboardInviteAccept: 'accepted {object}',
  Onboard: 'joined through onboarding',
  // Accounts
  Login: 'signed in',
  Logout: 'signed out',
  LoginLinkSent: 'asked for a sign-in link',
  ForgotPassword: 'asked for a password reset link',
  ResetPassword: 'reset their password',
  VerifyAccount: 'verified their account',
  ResendEmailVerification: 'asked for a new verification email',
  ChangeDetails: 'changed their details',
  EmailChangeRequested: 'asked to change an email address',
  EmailChangeConfirmed: 'confirmed their new email address',
  EmailChangeCancelled: 'cancelled a change of their email address',
  ChangePassword: 'changed their password',
  TwoFactorSetUp: 'set up two-factor authentication',
  TwoFactorPassed: 'passed two-factor authentication',
  TwoFactorSetupUndone: 'undid their two-factor set-up',
  TwoFactorRecoveryCodeIssued: 'downloaded new recovery codes',
  TwoFactorRecovered: 'signed in with a recovery code',
  TwoFactorActivated: 'turned on two-factor authentication',
  TwoFactorDeactivated: 'turned off two-factor authentication',
  // Reports, by staff
  Close: 'closed {object}',
  Open: 're-opened {object}',
  HardDelete: 'deleted {object}',
  LegalHold: 'put {object} on legal hold',
  LegalHoldRelease: 'released the legal hold on {object}',
  // Who and when only: what was redacted is gone, and the entry must not keep it (decision 053).
  RedactAnswer: 'redacted part of an answer in {object}',
  RedactMessage: 'redacted part of a message in {object}',
  SetPriority: 'changed the priority of {object}',
  InternalReference: 'changed the internal reference of {object}',
  AssignTags: 'changed the tags of {object}',
  TagAdded: 'added the tag{name}',
  TagRemoved: 'removed the tag{name}',
  MuteNotification: 'muted email notifications for {object}',
  UnmuteNotification: 'unmuted email notifications for {object}',
  Export: 'exported {object}',
  ExportAll: 'exported reports',
  ForwardEmail: 'emailed {object}',
  ForwardEmailFailed: 'could not email {object}',
  AssignUser: 'assigned{name} to {object}',
  JoinTeam: 'joined the team of {object}',
  UnassignUser: 'removed{name} from {object}',
  ChangeOwner: 'made{name} the owner of {object}',
  LeaveReport: 'left {object}',
  InviteUser: 'invited a guest to {object}',
  InviteRemove: 'removed a guest invite from {object}',
  InviteAccept: 'accepted an invite to {object}',
  InviteReject: 'declined an invite to {object}',
  NoteCreate: 'added a note to {object}',
  NoteUpdate: 'edited a note on {object}',
  NoteArchive: 'deleted a note on {object}',
  // Reports, by the reporter
  Start: 'started {object}',
  UpdateDraft: 'saved a draft of {object}',
  AddAttachment: 'uploaded a file to {object}',
  DeleteAttachment: 'removed a file from {object}',
  Complete: 'submitted {object}',
  ReissueCredentials: 'was given new credentials for {object}',
  ReporterLogin: 'signed in to {object}',
  ChangeReporterPassword: 'changed the password of {object}',
  SendEnquiry: 'sent an enquiry',
  SendMessage: 'sent a message on {object}',
  // The system
  NotifyNewReport: 'emailed the subscribers about {object}',
  NotifyNewMessage: 'emailed the team about a new message on {object}',
  NotifyStaleMessage: 'reminded the team of an unanswered message on {object}',
  NotifyRetentionDelete: 'warned the owners that {object} will be deleted under the retention setting',
  RetentionDelete: 'deleted {object} under the retention setting',
  DeleteAbandonedDrafts: 'deleted abandoned report drafts',
  SeedDemo: 'created the demo data',
  CreateSuperAdmin: 'created a super admin',
};

/** Actions worded per object type where one phrase would not do. */
const BY_OBJECT_TYPE: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Self: { ChangeAvatar: 'changed their picture', Update: 'updated their profile' },
  User: { ExportCsv: 'exported the users list', TwoFactorDeactivated: 'turned off two-factor authentication for {object}' },
  ReportSubmission: { ExportCsv: 'downloaded the reporting CSV' },
  Tag: { Update: 'renamed the tag{from} to{to}' },
};

/** The actions with a phrase of their own; any other reads as its spaced name. */
export const WORDED_ACTIONS: readonly string[] = [...Object.keys(PHRASES), 'ExportCsv'];

/** 'Jane D.': first name and initial, as the log names people. */
export function shortName(user: ActivityUser): string {
  const first = user.firstName.trim();
  const initial = user.lastName.trim().charAt(0);
  return [first, initial && `${initial}.`].filter(Boolean).join(' ') || 'Unnamed user';
}

/** The sentence's subject: the person, or who stands behind an entry without one. */
function subjectOf(entry: SentenceEntry, SYSTEM: ReadonlySet<string>): string {
  if (entry.user) return shortName(entry.user);
  if (entry.metadata?.deleted_user === true) return 'A deleted user';
  return SYSTEM.has(entry.action) ? 'The system' : 'The reporter';
}

const SYSTEM_SUBJECTS: ReadonlySet<string> = new Set(['NotifyNewReport', 'NotifyNewMessage', 'NotifyStaleMessage', 'NotifyRetentionDelete', 'RetentionDelete', 'DeleteAbandonedDrafts', 'SeedDemo', 'CreateSuperAdmin']);

/** One line for an entry: who did what to what. */
export function activitySentence(entry: SentenceEntry): string {
  const phrase = BY_OBJECT_TYPE[entry.objectType]?.[entry.action] ?? PHRASES[entry.action];
  const subject = subjectOf(entry, SYSTEM_SUBJECTS);
  if (!phrase) return `${subject}: ${activityLabel(entry.action)}`;
  const worded = phrase
    .replace('{object}', objectPhrase(entry))
    .replace('{name}', quoted(text(entry.metadata?.name)))
    .replace('{from}', quoted(text(entry.metadata?.from)))
    .replace('{to}', quoted(text(entry.metadata?.to)));
  return `${subject} ${worded}`;
}
