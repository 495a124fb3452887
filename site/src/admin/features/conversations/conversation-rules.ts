import { shortName } from '../../ui/badges';
import { can, isGuestMember, isOrganisationManager, type Viewer } from '../../viewer';
import type { ConversationRow as Row } from './conversations-api';

// What one row of the Conversations page says and offers; pure, so the rules can be read (and
// tested) apart from the table.

/**
 * The urgency selector (spec section 6: ReportConversationUpdate) is offered only where the
 * priority mutation would be accepted: its own rule is ReportSubmissionUpdate and being on the
 * report's team (not as a guest) or an owner or admin of the report's organisation.
 */
export function canSetPriority(viewer: Viewer, row: Row): boolean {
  if (!can(viewer, 'ReportConversationUpdate') || !can(viewer, 'ReportSubmissionUpdate')) return false;
  const assigned = row.submission.assignedUsers.some((member) => member.user.id === viewer.id);
  const managesOrganisation = isOrganisationManager(viewer) && viewer.organisation?.id === row.submission.submissionForm.organisationID;
  return (assigned && !isGuestMember(viewer)) || managesOrganisation;
}

/** One line whatever the message holds: an image reads 'Image', line breaks become spaces. */
export function previewText(lastMessage: Row['lastMessage']): string {
  if (!lastMessage) return 'No messages yet';
  if (lastMessage.type === 'Image') return 'Image';
  return lastMessage.message.replace(/\s+/g, ' ').trim();
}

export function senderText(lastMessage: NonNullable<Row['lastMessage']>): string {
  if (lastMessage.type === 'System') return 'System';
  if (lastMessage.from === 'Guest') return 'Reporter';
  return lastMessage.fromUser ? shortName(lastMessage.fromUser) : 'Organisation';
}
