/**
 * The audit log's object types (spec §3). A module of their own, apart from enums.ts: the console's
 * Audit Logs screen lists them, and enums.ts sits in the bundle every reporter page loads.
 */
export const AUDIT_OBJECT_TYPES = ["Self", "User", "Organisation", "Blob", "Tag", "ReportSubmission", "ReportForm", "OnboardInvite"] as const;
export type AuditObjectType = (typeof AUDIT_OBJECT_TYPES)[number];
