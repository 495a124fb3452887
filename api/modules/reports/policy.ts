import { and, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reportSubmissionAssignees, reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { UserError, forbidden } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { TERMINAL_SUBMISSION_STATUSES, type SubmissionStatus } from "../../shared/enums.ts";
import { TWO_FACTOR_FOR_OTHER_ORGANISATIONS } from "../../shared/messages.ts";
import { isSuperAdmin, requirePermission } from "../access/policy.ts";
import { hasTwoFactor, needsTwoFactorFor, twoFactorActive } from "./two-factor-gate.ts";

/**
 * Who sees which report (docs/decisions/009-report-access.md): super admins every organisation's,
 * owners and admins their organisation's, members and guest members only the reports they are
 * on the team of. Drafts (unfinished reports) and hard-deleted reports are nobody's to see.
 */
export const REPORT_NOT_FOUND = "Report Submission is not found";

export const isOrganisationManager = (actor: StaffActor) => actor.role === "ORGANISATION_OWNER" || actor.role === "ORGANISATION_ADMIN";

export function isTerminal(status: SubmissionStatus): boolean {
  return (TERMINAL_SUBMISSION_STATUSES as readonly string[]).includes(status);
}

/** The SQL condition for the reports a staff member may see. */
export function visibleReports(actor: StaffActor, organisationId: string | null): SQL {
  const base = [eq(reportSubmissions.completed, true), isNull(reportSubmissions.deletedAt)];
  if (isSuperAdmin(actor)) return and(...base, ...(organisationId ? [eq(reportSubmissions.organisationId, organisationId)] : []))!;
  if (!actor.organisationId) return sql`false`;
  const own = eq(reportSubmissions.organisationId, actor.organisationId);
  if (isOrganisationManager(actor)) return and(...base, own)!;
  // Members and guest members: only the reports whose team they are on; guests, and anyone on
  // another organisation's team, only with two-factor authentication active (decision 032).
  const twoFactor = twoFactorActive(actor.userId);
  return and(...base, onTeam(actor.userId), actor.role === "GUEST_MEMBER" ? twoFactor : or(own, twoFactor))!;
}

/** The report (of the outer query) has this user on its team. */
export function onTeam(userId: string): SQL {
  return sql`exists (select 1 from ${reportSubmissionAssignees} where ${reportSubmissionAssignees.submissionId} = ${reportSubmissions.id} and ${reportSubmissionAssignees.userId} = ${userId})`;
}

export interface ReportAccess {
  actor: StaffActor;
  submission: typeof reportSubmissions.$inferSelect;
  team: { userId: string; isOwner: boolean; isMuted: boolean }[];
  assigned: boolean;
  isOwner: boolean;
}

/**
 * A report the actor may see, with its team, optionally locked for update. Anything else (another
 * organisation's, a member's unassigned report, a malformed id) is "not found".
 */
export async function reportFor(ctx: Ctx, db: Database, id: unknown, permission: Parameters<typeof requirePermission>[1], lock = false): Promise<ReportAccess> {
  const actor = requirePermission(ctx, permission);
  if (!isUuid(id)) throw new UserError("NOT_FOUND", REPORT_NOT_FOUND);
  const query = db.select().from(reportSubmissions).where(and(eq(reportSubmissions.id, id), eq(reportSubmissions.completed, true), isNull(reportSubmissions.deletedAt)));
  const [submission] = lock ? await query.for("update") : await query;
  if (!submission) throw new UserError("NOT_FOUND", REPORT_NOT_FOUND);
  const team = await db
    .select({ userId: reportSubmissionAssignees.userId, isOwner: reportSubmissionAssignees.isOwner, isMuted: reportSubmissionAssignees.isMuted })
    .from(reportSubmissionAssignees)
    .where(eq(reportSubmissionAssignees.submissionId, submission.id));
  const mine = team.find((member) => member.userId === actor.userId);
  const sameOrganisation = submission.organisationId === actor.organisationId;
  const visible = isSuperAdmin(actor) || (sameOrganisation && isOrganisationManager(actor)) || Boolean(mine);
  if (!visible) throw new UserError("NOT_FOUND", REPORT_NOT_FOUND);
  // Seen only through the team: a guest, or someone from another organisation, needs two-factor (decision 032).
  const throughTeamOnly = !isSuperAdmin(actor) && !(sameOrganisation && isOrganisationManager(actor));
  if (throughTeamOnly && needsTwoFactorFor(actor, submission.organisationId) && !(await hasTwoFactor(db, actor.userId))) {
    throw forbidden(TWO_FACTOR_FOR_OTHER_ORGANISATIONS);
  }
  return { actor, submission, team, assigned: Boolean(mine), isOwner: Boolean(mine?.isOwner) };
}

/** Assign, set owner and remove: the report's owner, or an owner or admin of its organisation (never a guest). */
export function canManageTeam(access: ReportAccess): boolean {
  if (access.actor.role === "GUEST_MEMBER") return false;
  return access.isOwner || (isOrganisationManager(access.actor) && access.actor.organisationId === access.submission.organisationId) || isSuperAdmin(access.actor);
}
