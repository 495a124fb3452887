// The settings screen's calls (spec §7, Profile) and its texts (spec §8).

export const PROFILE_UPDATED = 'Profile has been updated successfully';
export const PASSWORD_UPDATED = 'Password has been updated successfully';
export const REQUIRED = 'Required';
export const UPLOAD_FAILED = 'Upload Failed';

export { AVATAR_EXTENSIONS, AVATAR_MAX_BYTES, avatarFileProblem, FILE_SIZE_TOO_LARGE, INVALID_FILE } from '../../ui/avatar-picker';
export { fieldProblems } from '../../ui/errors';

export type SettingsTab = 'profile' | 'change_password';

export type Profile = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  isSSO: boolean;
  twoFactorAuthenticationActivated: boolean;
  avatar: { id: string; fileURL: string } | null;
};

const PROFILE_FIELDS = 'id firstName lastName email isSSO twoFactorAuthenticationActivated avatar { id fileURL }';

/**
 * A new address waiting for the link mailed to it (decision 061). Asked on its own: the profile
 * query is answered from the viewer's kept row (decision 025), which knows nothing of waiting changes.
 */
export const PENDING_EMAIL_QUERY = `query SettingsPendingEmail { viewer { id pendingEmail } }`;

/** After asking for a new address: nothing changes until its owner opens the link. */
export const emailLinkSent = (email: string) => `A confirmation link has been sent to ${email}. Your email address changes when you open it.`;

export const PROFILE_QUERY = `query SettingsProfile { viewer { ${PROFILE_FIELDS} } }`;

export const CHANGE_DETAILS_MUTATION = `mutation SettingsChangeDetails($input: ChangeDetailsInput!) {
  changeDetails(input: $input) { ${PROFILE_FIELDS} pendingEmail } }`;

export const CHANGE_AVATAR_MUTATION = `mutation SettingsChangeAvatar($file: File!) { changeAvatar(file: $file) { ${PROFILE_FIELDS} } }`;

export const CHANGE_PASSWORD_MUTATION = `mutation SettingsChangePassword($oldPassword: String!, $newPassword: String!, $passcode: String, $recoveryCode: String) {
  changePassword(oldPassword: $oldPassword, newPassword: $newPassword, passcode: $passcode, recoveryCode: $recoveryCode) }`;
