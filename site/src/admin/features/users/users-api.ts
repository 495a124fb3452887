import type { RoleName } from '../../../../../api/shared/enums';
import { outranks } from '../../../../../api/shared/roles';
import type { UserRoleType } from '../../paths';

// The user administration's calls and texts (spec §2 Users, §7, §8).

export const USER_UPDATED = 'User has been updated successfully';
export const PASSWORD_CHANGED = "User's password has been changed";
export const USER_NOT_FOUND = 'User is not found';
export const CONTACT_ADMIN = 'Contact admin to unsuspend.';
export const SUPER_ADMINS_CANNOT_ENABLE = 'Super Admins cannot enable Two-Factor Authentication.';
export const REQUIRED = 'Required';
export { fieldProblems } from '../../ui/errors';
export const UPLOAD_FAILED = 'Upload Failed';

/** The list titles by role (spec §2), and the role each address names. */
export const ROLE_TYPES: Record<UserRoleType, { role: RoleName; title: string }> = {
  SuperAdmin: { role: 'SUPER_ADMIN', title: 'Super Admins' },
  OrganisationOwner: { role: 'ORGANISATION_OWNER', title: 'Organisation Owners' },
  OrganisationAdmin: { role: 'ORGANISATION_ADMIN', title: 'Organisation Admins' },
  Member: { role: 'MEMBER', title: 'Members' },
  GuestMember: { role: 'GUEST_MEMBER', title: 'Guest Members' },
};

export type UserRow = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  suspended: boolean;
  verified: boolean;
  role: { id: string; name: RoleName; label: string };
  organisation: { id: string; name: string } | null;
};

const ROW_FIELDS = 'id email firstName lastName suspended verified role { id name label } organisation { id name }';

export const USERS_QUERY = `query UsersList($organisationID: ID, $roleName: RoleName, $includeGuestMembers: Boolean, $search: String, $limit: Int, $offset: Int) {
  users(organisationID: $organisationID, roleName: $roleName, includeGuestMembers: $includeGuestMembers, search: $search, sortBy: alphabetical, ascending: true, limit: $limit, offset: $offset) {
    total list { ${ROW_FIELDS} }
  }
}`;

/** The seats line: activeUsers/openSeatNumber of the organisation (spec §9). */
export const SEATS_QUERY = `query UserSeats($id: ID!) { organisation(id: $id) { id name openSeatNumber usage { activeUsers } } }`;
export type Seats = { id: string; name: string; openSeatNumber: number; usage: { activeUsers: number } };

export type EditableUser = UserRow & {
  username: string | null;
  isSSO: boolean;
  twoFactorAuthenticationActivated: boolean;
  avatar: { id: string; fileURL: string } | null;
};
const USER_FIELDS = `${ROW_FIELDS} username isSSO twoFactorAuthenticationActivated avatar { id fileURL }`;

export const USER_QUERY = `query UserEdit($id: ID!) { userGet(id: $id) { ${USER_FIELDS} } }`;
export const ROLES_QUERY = `query UserRoles { roles { id name label rank } }`;
export type RoleOption = { id: string; name: RoleName; label: string; rank: number };
export const ORGANISATIONS_QUERY = `query UserOrganisations { organisations(limit: 100) { list { id name } } }`;

export const USER_CREATE = `mutation UserCreate($input: UserCreateInput!) { userCreate(input: $input) { ${USER_FIELDS} } }`;
export const USER_UPDATE = `mutation UserUpdate($id: ID!, $input: UserUpdateInput!) { userUpdate(id: $id, input: $input) { ${USER_FIELDS} } }`;
export const USER_UPDATE_AVATAR = `mutation UserUpdateAvatar($id: ID!, $file: File!) { userUpdateAvatar(id: $id, file: $file) { ${USER_FIELDS} } }`;
export const USER_SUSPEND = `mutation UserSuspend($id: ID!) { userSuspend(id: $id) { id suspended } }`;
export const USER_UNSUSPEND = `mutation UserUnsuspend($id: ID!) { userUnsuspend(id: $id) { id suspended } }`;
export const USER_DELETE = `mutation UserDelete($id: ID!) { userDelete(id: $id) }`;
export const USER_KICK = `mutation UserKick($id: ID!, $organisationID: ID!) { userKick(id: $id, organisationID: $organisationID) }`;

export const USERS_EXPORT_PATH = '/api/admin/export/users';
export const USERS_EXPORT_FILE = 'users-export.csv';

/** Row actions only on users ranked below the viewer (spec §6). */
export const actsOn = (viewerRole: RoleName, target: RoleName) => outranks(viewerRole, target);

/**
 * The roles the viewer may give: those ranked below them (a super admin may make super admins).
 * On an organisation page, and for anyone but a super admin, the list leaves out SuperAdmin and
 * GuestMember (spec §6).
 */
export function assignableRoles(roles: readonly RoleOption[], viewerRole: RoleName, organisationPage: boolean): RoleOption[] {
  return roles.filter((role) => {
    if (organisationPage && (role.name === 'SUPER_ADMIN' || role.name === 'GUEST_MEMBER')) return false;
    return viewerRole === 'SUPER_ADMIN' || outranks(viewerRole, role.name);
  });
}

/** Export: the file the server names, saved through a temporary link. Errors are only logged (spec §7). */
export async function downloadUsersExport(search: 'All' | 'Active' | 'Archived'): Promise<void> {
  try {
    const response = await fetch(USERS_EXPORT_PATH, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ search }), credentials: 'same-origin' });
    if (!response.ok) throw new Error(`Export failed with ${response.status}`);
    const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? USERS_EXPORT_FILE;
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(url);
  } catch (error) {
    console.error('Users export failed', error);
  }
}
