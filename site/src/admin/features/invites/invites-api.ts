import type { RoleName } from '../../../../../api/shared/enums';
import { outranks } from '../../../../../api/shared/roles';

// The documents the Invites page sends (spec §7 Invites; decision 035).

export type InviteRow = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  status: 'Invited' | 'Onboarded';
  createdAt: string;
  expiresAt: string;
  archived: boolean;
  roleID: string;
  roleName: RoleName;
  roleLabel: string;
  organisation: { id: string; name: string; enableSSO: boolean };
};

export type Seats = { openSeatNumber: number; activeUsers: number; pendingInvites: number };
export type InviteListData = { onboardInvites: { total: number; list: InviteRow[]; seats: Seats | null } };
export type RoleOption = { id: string; name: RoleName; label: string };

const ROW_FIELDS = 'id firstName lastName email status createdAt expiresAt archived roleID roleName roleLabel organisation { id name enableSSO }';

export const INVITES_QUERY = `query OnboardInvites($organisationID: ID, $search: String, $filter: ListFilter, $limit: Int, $offset: Int) {
  onboardInvites(organisationID: $organisationID, search: $search, filter: $filter, limit: $limit, offset: $offset) {
    total list { ${ROW_FIELDS} } seats { openSeatNumber activeUsers pendingInvites } } }`;

export const ROLES_QUERY = `query InviteRoles { roles { id name label } }`;

export const CREATE_MUTATION = `mutation OnboardInviteCreate($organisationID: ID, $input: OnboardInviteInput!) {
  onboardInviteCreate(organisationID: $organisationID, input: $input) { hasEmailSent invite { ${ROW_FIELDS} } } }`;
export const RESEND_MUTATION = `mutation ResendOnboardInvite($id: ID!) { resendOnboardInvite(id: $id) { ${ROW_FIELDS} } }`;
export const ARCHIVE_MUTATION = `mutation OnboardInviteArchive($id: ID!) { onboardInviteArchive(id: $id) { ${ROW_FIELDS} } }`;
export const UNARCHIVE_MUTATION = `mutation OnboardInviteUnarchive($id: ID!) { onboardInviteUnarchive(id: $id) { ${ROW_FIELDS} } }`;

export type InviteCreateData = { onboardInviteCreate: { hasEmailSent: boolean; invite: InviteRow } };

// The spec's texts (§8).
export const createdText = (email: string) => `Successfully created new invite for "${email}"`;
export const mailFailedText = (email: string) => `Invitation created for "${email}", however email failed to send. Please try again later.`;
export const resentText = (email: string) => `Invitation has been resent to "${email}"`;
export const resendFailedText = (email: string) => `An error occurred when re-sending an invitation to "${email}"`;

/** The roles one may invite to: below one's own, and never SuperAdmin or GuestMember (decision 035); the server checks again. */
export function invitableRoles(roles: readonly RoleOption[], actor: RoleName): RoleOption[] {
  return roles.filter((role) => role.name !== 'SUPER_ADMIN' && role.name !== 'GUEST_MEMBER' && outranks(actor, role.name));
}

/** Row actions only on invites to roles below the viewer's (spec §6). */
export const canManageInvite = (invite: InviteRow, actor: RoleName) => outranks(actor, invite.roleName);

export const isExpired = (invite: InviteRow, now = Date.now()) => invite.status === 'Invited' && new Date(invite.expiresAt).getTime() <= now;
