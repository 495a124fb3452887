import * as v from 'valibot';
import { ROLE_NAMES, type RoleName } from '../../../api/shared/enums';
import { roleLabel } from '../../../api/shared/roles';

// The signed-in staff user as every screen sees it. It sits outside the features because the shell,
// the dashboard and the reports all read it, and features never import each other.

export { ROLE_NAMES, type RoleName };

export const VIEWER_QUERY = `query Viewer { viewer { id email firstName lastName verified isSSO twoFactorAuthenticationActivated
  twoFactorAuthenticationIsSet pass2FA hasRecoveryCode role { name label permissions } organisation { id name slug } } }`;

const viewerSchema = v.object({
  id: v.string(),
  email: v.string(),
  // Names can be missing for accounts created from an invite.
  firstName: v.nullish(v.string(), ''),
  lastName: v.nullish(v.string(), ''),
  verified: v.nullish(v.boolean(), true),
  isSSO: v.nullish(v.boolean(), false),
  twoFactorAuthenticationActivated: v.nullish(v.boolean(), false),
  // Missing means nothing is owed: the two-factor screens show only when the server says so.
  twoFactorAuthenticationIsSet: v.nullish(v.boolean(), false),
  pass2FA: v.nullish(v.boolean(), true),
  hasRecoveryCode: v.nullish(v.boolean(), true),
  role: v.object({
    name: v.picklist(ROLE_NAMES),
    label: v.string(),
    permissions: v.array(v.string()),
  }),
  organisation: v.nullable(v.object({ id: v.string(), name: v.string(), slug: v.string() })),
});

const viewerDataSchema = v.object({ viewer: v.nullable(viewerSchema) });

export type Viewer = v.InferOutput<typeof viewerSchema>;

// undefined: the answer did not have the expected shape; null: no viewer.
export function parseViewerData(data: unknown): Viewer | null | undefined {
  const result = v.safeParse(viewerDataSchema, data);
  return result.success ? result.output.viewer : undefined;
}

export function displayName(viewer: Pick<Viewer, 'firstName' | 'lastName' | 'email'>): string {
  const name = `${viewer.firstName} ${viewer.lastName}`.trim();
  return name === '' ? viewer.email : name;
}

export const isSuperAdmin = (viewer: Viewer) => viewer.role.name === 'SUPER_ADMIN';
export const isGuestMember = (viewer: Viewer) => viewer.role.name === 'GUEST_MEMBER';
export const isOrganisationManager = (viewer: Viewer) =>
  viewer.role.name === 'ORGANISATION_OWNER' || viewer.role.name === 'ORGANISATION_ADMIN';

/** The console's gates read the role's permission list (decision 002); the server checks again. */
export function can(viewer: Viewer, permission: string): boolean {
  return viewer.role.permissions.includes(permission);
}

// Guest members have no dashboard; their home is the organisations list.
export function homePathFor(viewer: Viewer): string {
  return isGuestMember(viewer) ? '/admin/manage/organisations' : '/admin/dashboard';
}

/** 'Owner', 'Guest Member' … for a role name as the server spells it. */
export function roleLabelOf(name: string): string {
  return (ROLE_NAMES as readonly string[]).includes(name) ? roleLabel(name as RoleName) : name;
}
