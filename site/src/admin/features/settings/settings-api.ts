import type { CombinedError } from 'urql';

// The settings screen's calls (spec §7, Profile) and its texts (spec §8).

export const PROFILE_UPDATED = 'Profile has been updated successfully';
export const PASSWORD_UPDATED = 'Password has been updated successfully';
export const REQUIRED = 'Required';
export const UPLOAD_FAILED = 'Upload Failed';

/** An avatar is a jpg or png (spec §5); the console's image picker takes one file of at most 5,000,000 bytes. */
export const AVATAR_EXTENSIONS = ['.jpg', '.jpeg', '.png'] as const;
export const AVATAR_MAX_BYTES = 5_000_000;
export const FILE_SIZE_TOO_LARGE = 'File size too large';
export const INVALID_FILE = 'Invalid file';

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

export const PROFILE_QUERY = `query SettingsProfile { viewer { ${PROFILE_FIELDS} } }`;

export const CHANGE_DETAILS_MUTATION = `mutation SettingsChangeDetails($input: ChangeDetailsInput!) {
  changeDetails(input: $input) { ${PROFILE_FIELDS} } }`;

export const CHANGE_AVATAR_MUTATION = `mutation SettingsChangeAvatar($file: File!) { changeAvatar(file: $file) { ${PROFILE_FIELDS} } }`;

export const CHANGE_PASSWORD_MUTATION = `mutation SettingsChangePassword($oldPassword: String!, $newPassword: String!) {
  changePassword(oldPassword: $oldPassword, newPassword: $newPassword) }`;

/** The server's per-field problems (extensions.fields), keyed by field name. */
export function fieldProblems(error: CombinedError | undefined): Record<string, string> {
  const fields = error?.graphQLErrors[0]?.extensions?.fields;
  const problems: Record<string, string> = {};
  if (!Array.isArray(fields)) return problems;
  for (const entry of fields as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { field, message } = entry as { field?: unknown; message?: unknown };
    if (typeof field === 'string' && typeof message === 'string' && !(field in problems)) problems[field] = message;
  }
  return problems;
}

/** The picker's own checks, before anything is sent. */
export function avatarFileProblem(file: File): string | undefined {
  const name = file.name.toLowerCase();
  if (!AVATAR_EXTENSIONS.some((extension) => name.endsWith(extension))) return INVALID_FILE;
  if (file.size > AVATAR_MAX_BYTES) return FILE_SIZE_TOO_LARGE;
  return undefined;
}
