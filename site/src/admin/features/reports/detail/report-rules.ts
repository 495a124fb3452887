import { isTerminalStatus } from '../../../ui/badges';
import { can, isGuestMember, isOrganisationManager, isSuperAdmin, type Viewer } from '../../../viewer';
import type { ReportDetail } from './detail-api';

// What the viewer may do with one report, mirroring the server's object rules
// (docs/decisions/009-report-access.md). The server decides in the end; these only keep the screen
// from offering what would be refused.

export type ReportRules = {
  assigned: boolean;
  hasTeam: boolean;
  canJoin: boolean;
  canManageTeam: boolean;
  /** The Invites section: the report's owner who is also an owner or admin of its organisation. */
  canInvite: boolean;
  canClose: boolean;
  canReopen: boolean;
  canLeave: boolean;
  canEmail: boolean;
  canSetPriority: boolean;
  canMute: boolean;
  showIdentifiers: boolean;
  canWriteNotes: boolean;
  canReply: boolean;
  tabs: { report: boolean; team: boolean; messages: boolean; uploads: boolean; notes: boolean };
};

export function reportRules(viewer: Viewer, report: ReportDetail): ReportRules {
  const guest = isGuestMember(viewer);
  const assigned = report.assignedUsers.some((member) => member.user.id === viewer.id);
  const managesOrganisation = isOrganisationManager(viewer) && viewer.organisation?.id === report.submissionForm.organisationID;
  const terminal = isTerminalStatus(report.status);
  const mayUpdate = can(viewer, 'ReportSubmissionUpdate');
  return {
    assigned,
    hasTeam: report.assignedUsers.length > 0,
    canJoin: managesOrganisation && !assigned && mayUpdate,
    canManageTeam: !guest && mayUpdate && (report.isOwner || managesOrganisation || isSuperAdmin(viewer)),
    canInvite: mayUpdate && report.isOwner && managesOrganisation,
    canClose: assigned && !guest && can(viewer, 'ReportSubmissionClose') && !terminal,
    canReopen: assigned && !guest && can(viewer, 'ReportSubmissionOpen') && terminal && !report.archived,
    canLeave: guest && assigned,
    canEmail: assigned || managesOrganisation,
    canSetPriority: mayUpdate && ((assigned && !guest) || managesOrganisation),
    canMute: assigned,
    showIdentifiers: can(viewer, 'ReportSubmissionInternalReference') && !guest && !isSuperAdmin(viewer),
    canWriteNotes: assigned && can(viewer, 'ReportSubmissionNoteCreate'),
    canReply: assigned && can(viewer, 'ReportConversationCreate'),
    tabs: {
      report: can(viewer, 'ReportSubmissionRead'),
      team: true,
      messages: report.hasChat && can(viewer, 'ReportConversationRead'),
      uploads: can(viewer, 'ReportSubmissionRead'),
      notes: can(viewer, 'ReportSubmissionNoteList'),
    },
  };
}
