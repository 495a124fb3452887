import { formatDateTime, formatUtcDay } from '../../lib/format';
import { spaced } from './badges';
import { roleLabelOf } from '../viewer';

// How audit log entries read in the console. The action codes are the ones the server writes
// (api/modules/*: recordActivity); an unknown code still reads as its spaced name. Shared through
// ui/ so the report's Activity Logs tab and the Audit Logs pages word entries the same way.

const ACTION_LABELS: Readonly<Record<string, string>> = {
  // The reporter
  Start: 'Report started',
  UpdateDraft: 'Report draft saved',
  AddAttachment: 'File uploaded',
  DeleteAttachment: 'File removed',
  Complete: 'Report submitted',
  ReissueCredentials: 'Report credentials reissued',
  ReporterLogin: 'Reporter signed in',
  ChangeReporterPassword: 'Report password changed',
  SendEnquiry: 'Enquiry sent',
  SendMessage: 'Message sent',
  // The system
  NotifyNewReport: 'New report email sent',
  NotifyNewMessage: 'New message email sent',
  NotifyStaleMessage: 'Reply reminder email sent',
  NotifyRetentionDelete: 'Retention deletion warning sent',
  // Staff on a report
  Close: 'Report closed',
  Open: 'Report re-opened',
  Archive: 'Archived',
  Unarchive: 'Unarchived',
  HardDelete: 'Report deleted',
  LegalHold: 'Legal hold placed',
  LegalHoldRelease: 'Legal hold released',
  SetPriority: 'Priority changed',
  InternalReference: 'Internal reference changed',
  AssignTags: 'Tags changed',
  MuteNotification: 'Email notifications muted',
  UnmuteNotification: 'Email notifications unmuted',
  Export: 'Report exported',
  ExportAll: 'Reports exported',
  ExportCsv: 'Reporting CSV downloaded',
  ForwardEmail: 'Report emailed',
  ForwardEmailFailed: 'Report email failed to send',
  AssignUser: 'User assigned',
  JoinTeam: 'Joined the team',
  UnassignUser: 'User removed from the team',
  ChangeOwner: 'Owner changed',
  LeaveReport: 'Left the report',
  InviteUser: 'Guest user invited',
  InviteRemove: 'Guest invite removed',
  InviteAccept: 'Guest invite accepted',
  InviteReject: 'Guest invite rejected',
  NoteCreate: 'Note added',
  NoteUpdate: 'Note edited',
  NoteArchive: 'Note deleted',
  // Accounts and settings
  Login: 'Signed in',
  Logout: 'Signed out',
  ForgotPassword: 'Password reset link sent',
  ResetPassword: 'Password reset',
  VerifyAccount: 'Account verified',
  ResendEmailVerification: 'Verification email sent',
  Update: 'Settings updated',
  SeedDemo: 'Demo data created',
  CreateSuperAdmin: 'Super admin created',
  // Organisations
  CreateOrganisation: 'Organisation created',
  UpdateLogo: 'Logo changed',
  ExportOrganisations: 'Organisations exported',
  CreateEmailSubscriber: 'Subscriber added',
  DeleteEmailSubscriber: 'Subscriber deleted',
};

/** Entries written by the system rather than a person; every other entry without a user is the reporter's. */
const SYSTEM_ACTIONS: ReadonlySet<string> = new Set(['NotifyNewReport', 'NotifyNewMessage', 'NotifyStaleMessage', 'SeedDemo', 'CreateSuperAdmin']);

/** The spec shows the super admin's role with the product's name. */
export const SUPER_ADMIN_LABEL = 'Lantern Admin';

export type ActivityUser = { firstName: string; lastName: string; role: string };

export function activityLabel(action: string): string {
  return ACTION_LABELS[action] ?? spaced(action);
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** A short detail from the entry's metadata (only what the server lets through), or undefined. */
export function activityDetail(action: string, metadata: Record<string, unknown> | null | undefined): string | undefined {
  if (!metadata) return undefined;
  const from = text(metadata.from);
  const to = text(metadata.to);
  if (to && (action === 'Close' || action === 'Open' || action === 'SetPriority')) return from ? `${spaced(from)} → ${spaced(to)}` : spaced(to);
  if (action === 'AssignTags' && Array.isArray(metadata.tags)) return metadata.tags.length ? metadata.tags.join(', ') : 'No tags';
  return text(metadata.name);
}

/** Who acted: the staff member's name and role, or who stands behind an entry without one. */
export function activityActor(action: string, user: ActivityUser | null, metadata?: Record<string, unknown> | null): { name: string; role?: string } {
  // A deleted account's entries keep a marker in place of their author (decision 034).
  if (!user && metadata?.deleted_user === true) return { name: 'Deleted user' };
  if (!user) return { name: SYSTEM_ACTIONS.has(action) ? 'System' : 'Reporter' };
  const name = `${user.firstName} ${user.lastName}`.trim() || 'Unnamed user';
  return { name, role: user.role === 'SUPER_ADMIN' ? SUPER_ADMIN_LABEL : roleLabelOf(user.role) };
}

/** Said beside an entry that keeps only its day, so the missing time reads as deliberate. */
export const DAY_ONLY_NOTE = 'Only the day is recorded for what a reporter or the system does.';

/**
 * When an entry happened: date and time, or for an entry without a person only the day (the server
 * stores no more, decision 064), which is a UTC day.
 */
export function activityWhen(entry: { createdAt: string; dayOnly: boolean }): string {
  return (entry.dayOnly ? formatUtcDay(entry.createdAt) : formatDateTime(entry.createdAt)) ?? '';
}
