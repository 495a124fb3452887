// The Guest Access screens' calls (spec §2 Guest Access, §7 guestMemberReportInvites, organisations).

export const INVITES_QUERY = `query GuestReportInvites { guestMemberReportInvites { id reportID status organisationName createdAt } }`;
export const ACCEPT_MUTATION = 'mutation GuestInviteAccept($id: ID!) { guestMemberReportInviteAccept(id: $id) { id status } }';
export const REJECT_MUTATION = 'mutation GuestInviteReject($id: ID!) { guestMemberReportInviteReject(id: $id) { id status } }';

export const ORGANISATIONS_QUERY = `query GuestOrganisations($search: String, $limit: Int, $offset: Int) {
  organisations(search: $search, limit: $limit, offset: $offset) { total list { id name createdAt } } }`;

export type InviteStatus = 'Opened' | 'Approved' | 'Rejected' | 'Aborted';
export type InviteRow = { id: string; reportID: string; status: InviteStatus; organisationName: string; createdAt: string };
export type OrganisationRow = { id: string; name: string; createdAt: string };

/** The spec's fallback for a failed accept or reject (its own punctuation, unlike the sign-in one). */
export { ACTION_FAILED_MESSAGE as INVITE_ANSWER_FAILED } from '../../../lib/action-failed';

/** How each status reads in the list. */
export const STATUS_LABELS: Record<InviteStatus, string> = { Opened: 'Pending', Approved: 'Accepted', Rejected: 'Rejected', Aborted: 'Withdrawn' };
