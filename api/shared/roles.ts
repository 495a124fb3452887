import type { RoleName } from "./enums.ts";

export interface RoleDefinition {
  name: RoleName;
  /** 1 is the most powerful; members and guest members share rank 4. */
  rank: number;
  label: string;
}

export const ROLE_DEFINITIONS: readonly RoleDefinition[] = [
  { name: "SUPER_ADMIN", rank: 1, label: "Super Admin" },
  { name: "ORGANISATION_OWNER", rank: 2, label: "Owner" },
  { name: "ORGANISATION_ADMIN", rank: 3, label: "Admin" },
  { name: "MEMBER", rank: 4, label: "Member" },
  { name: "GUEST_MEMBER", rank: 4, label: "Guest Member" },
];

export function roleRank(name: RoleName): number {
  return ROLE_DEFINITIONS.find((role) => role.name === name)?.rank ?? Number.POSITIVE_INFINITY;
}

export function roleLabel(name: RoleName): string {
  return ROLE_DEFINITIONS.find((role) => role.name === name)?.label ?? name;
}

/** Editing or acting on another user needs a strictly higher role (a lower rank number). */
export function outranks(actor: RoleName, target: RoleName): boolean {
  return roleRank(actor) < roleRank(target);
}
