import type { RoleName } from "./enums.ts";

/**
 * The one role → permission map. Every check on the server and every gate in the console reads
 * it. Names are the spec's; which role holds which is decided in docs/decisions/002-permission-map.md.
 */

const CRUD_VERBS = ["List", "Read", "Create", "Update", "Archive", "Unarchive"] as const;
const CRUD_RESOURCES = [
  "User",
  "Organisation",
  "OrganisationMemberInvite",
  "ReportForm",
  "ReportFormNote",
  "ReportFormTemplate",
  "ReportSubmission",
  "ReportSubmissionNote",
  "ReportConversation",
  "Tag",
  "SavedReply",
  "ProductPlan",
  "Resource",
] as const;

type CrudPermission = `${(typeof CRUD_RESOURCES)[number]}${(typeof CRUD_VERBS)[number]}`;

const EXTRA_PERMISSIONS = [
  "OrganisationEmailSubscriberList",
  "OrganisationEmailSubscriberCreate",
  "OrganisationEmailSubscriberDelete",
  "ReportFormPublish",
  "ReportFormUnpublish",
  "ReportSubmissionHardDelete",
  "ReportSubmissionInternalReference",
  /** Puts a report on legal hold, or releases it: owners and admins (decision 052). */
  "ReportSubmissionLegalHold",
  "ReportSubmissionOpen",
  "ReportSubmissionClose",
  /**
   * Destroys a span of a reporter's answer or a chat message for good: owners and admins (decision 053).
   * Not members: it rewrites the record of what the reporter said, which the organisation answers for.
   */
  "ReportSubmissionRedact",
  "UserActivityList",
] as const;

export type Permission = CrudPermission | (typeof EXTRA_PERMISSIONS)[number];

export const ALL_PERMISSIONS: readonly Permission[] = [
  ...CRUD_RESOURCES.flatMap((resource) => CRUD_VERBS.map((verb): Permission => `${resource}${verb}`)),
  ...EXTRA_PERMISSIONS,
];

const crud = (resource: (typeof CRUD_RESOURCES)[number], verbs: readonly (typeof CRUD_VERBS)[number][] = CRUD_VERBS): Permission[] =>
  verbs.map((verb): Permission => `${resource}${verb}`);

/** Super-admin-only powers: managing organisations, templates, plans and help resources. */
const PLATFORM_ONLY: ReadonlySet<Permission> = new Set<Permission>([
  "OrganisationList",
  "OrganisationCreate",
  "OrganisationArchive",
  "OrganisationUnarchive",
  ...crud("ReportFormTemplate", ["Create", "Update", "Archive", "Unarchive"]),
  ...crud("ProductPlan", ["Create", "Update", "Archive", "Unarchive"]),
  ...crud("Resource", ["Create", "Update", "Archive", "Unarchive"]),
]);

const OWNER: Permission[] = [
  ...ALL_PERMISSIONS.filter((permission) => !PLATFORM_ONLY.has(permission)),
];

/** Admins run the organisation day to day; destroying reports and billing stay with the owner. */
const ADMIN: Permission[] = OWNER.filter(
  (permission) => permission !== "ReportSubmissionHardDelete" && !permission.startsWith("ProductPlan"),
);

/** Members work on the reports they are assigned to. */
const MEMBER: Permission[] = [
  // Not ReportSubmissionRedact: destroying what a reporter said is the organisation's decision (053).
  "OrganisationRead",
  "UserRead",
  ...crud("ReportSubmission", ["List", "Read", "Update"]),
  "ReportSubmissionClose",
  "ReportSubmissionOpen",
  "ReportSubmissionInternalReference",
  ...crud("ReportSubmissionNote"),
  ...crud("ReportConversation", ["List", "Read", "Create", "Update"]),
  ...crud("Tag", ["List", "Read"]),
  // Saved replies are inserted into chats, so whoever chats on a report reads them (decision 051).
  ...crud("SavedReply", ["List", "Read"]),
  ...crud("Resource", ["List", "Read"]),
];

/** Outsiders invited to single reports: read, note and chat, never close, tag or see identifiers. */
const GUEST_MEMBER: Permission[] = [
  "UserRead",
  ...crud("ReportSubmission", ["List", "Read"]),
  ...crud("ReportSubmissionNote", ["List", "Read", "Create", "Update", "Archive"]),
  ...crud("ReportConversation", ["List", "Read", "Create"]),
  ...crud("SavedReply", ["List", "Read"]),
  ...crud("Resource", ["List", "Read"]),
];

export const ROLE_PERMISSIONS: Readonly<Record<RoleName, ReadonlySet<Permission>>> = {
  SUPER_ADMIN: new Set(ALL_PERMISSIONS),
  ORGANISATION_OWNER: new Set(OWNER),
  ORGANISATION_ADMIN: new Set(ADMIN),
  MEMBER: new Set(MEMBER),
  GUEST_MEMBER: new Set(GUEST_MEMBER),
};

export function hasPermission(role: RoleName, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

export function permissionsOf(role: RoleName): Permission[] {
  return ALL_PERMISSIONS.filter((permission) => ROLE_PERMISSIONS[role].has(permission));
}
