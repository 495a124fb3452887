import { and, eq, sql, type SQL } from "drizzle-orm";
import { organisations, reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError, forbidden } from "../../lib/errors.ts";
import { requirePermission } from "../access/policy.ts";
import { changeReport } from "../reports/events.ts";
import { reportScope, scopedReports } from "../reports/list.ts";
import type { ReportView } from "../reports/views.ts";
import { legalClocks, type LegalClocks } from "./clocks.ts";
import { markFeedbackGiven } from "./hooks.ts";
import { acknowledgeBySql, acknowledgeDueSoon, awaitingAcknowledgement, awaitingFeedback, feedbackBySql, feedbackDueSoon, overdue } from "./sql.ts";

/** The report's clocks, the feedback mutation and the dashboard's counts (decision 050). */

export const CLOCKS_OFF = "Legal deadlines are off for this organisation.";
export const FEEDBACK_ALREADY_GIVEN = "Feedback has already been recorded for this report.";
export const TEAM_ONLY_FEEDBACK = "Only members of the report team can record feedback.";
export const ACTION_FEEDBACK_GIVEN = "FeedbackGiven";

export interface LegalClockCounts {
  acknowledgeDueSoon: number;
  acknowledgeOverdue: number;
  feedbackDueSoon: number;
  feedbackOverdue: number;
}

/**
 * The clocks of a report the reader already sees (the parent field checked that); null when its
 * organisation has them off.
 */
export async function reportLegalClocks(ctx: Ctx, report: Pick<ReportView, "id">, now = new Date()): Promise<LegalClocks | null> {
  const [row] = await ctx.db
    .select({
      completedAt: reportSubmissions.completedAt,
      acknowledgedAt: reportSubmissions.acknowledgedAt,
      feedbackAt: reportSubmissions.feedbackAt,
      enabled: organisations.legalClocksEnabled,
    })
    .from(reportSubmissions)
    .innerJoin(organisations, eq(organisations.id, reportSubmissions.organisationId))
    .where(eq(reportSubmissions.id, report.id))
    .limit(1);
  if (!row?.enabled || !row.completedAt) return null;
  return legalClocks({ receivedAt: row.completedAt, acknowledgedAt: row.acknowledgedAt, feedbackAt: row.feedbackAt }, now);
}

/**
 * Feedback given to the reporter another way than closing (a meeting, a letter). Its team only, not
 * a guest, as closing; ReportSubmissionUpdate because it records a fact about the report's
 * handling without ending it. Refused when the clocks are off or feedback is already recorded.
 */
export function recordFeedbackGiven(ctx: Ctx, id: unknown): Promise<ReportView> {
  return changeReport(ctx, id, "ReportSubmissionUpdate", async (tx, access) => {
    if (!access.assigned || access.actor.role === "GUEST_MEMBER") throw forbidden(TEAM_ONLY_FEEDBACK);
    const [organisation] = await tx
      .select({ enabled: organisations.legalClocksEnabled })
      .from(organisations)
      .where(eq(organisations.id, access.submission.organisationId));
    if (!organisation?.enabled) throw new UserError("CONFLICT", CLOCKS_OFF);
    const at = new Date();
    // The report is locked (changeReport), so a second click finds the time already set.
    if (!(await markFeedbackGiven(tx, access.submission.id, at))) throw new UserError("CONFLICT", FEEDBACK_ALREADY_GIVEN);
    return { action: ACTION_FEEDBACK_GIVEN, metadata: { at: at.toISOString() } };
  });
}

const countWhere = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;

/**
 * The dashboard's four numbers over the reports the reader sees, scoped as the dashboard's other
 * stats (reports/stats.ts): permission ReportSubmissionList, no guests, one organisation when named.
 */
export async function legalClockCounts(ctx: Ctx, args: { organisationID?: string | null }, now = new Date()): Promise<LegalClockCounts> {
  const actor = requirePermission(ctx, "ReportSubmissionList");
  if (actor.role === "GUEST_MEMBER") throw forbidden();
  const organisationId = await reportScope(ctx, actor, args.organisationID);
  const [row] = await ctx.db
    .select({
      acknowledgeDueSoon: countWhere(and(awaitingAcknowledgement(), acknowledgeDueSoon(now))!),
      acknowledgeOverdue: countWhere(and(awaitingAcknowledgement(), overdue(acknowledgeBySql, now))!),
      feedbackDueSoon: countWhere(and(awaitingFeedback(), feedbackDueSoon(now))!),
      feedbackOverdue: countWhere(and(awaitingFeedback(), overdue(feedbackBySql, now))!),
    })
    .from(reportSubmissions)
    .innerJoin(organisations, eq(organisations.id, reportSubmissions.organisationId))
    // Only reports still waiting for one clock or the other: what the partial indexes hold.
    .where(and(scopedReports(actor, organisationId), sql`(${reportSubmissions.acknowledgedAt} is null or ${reportSubmissions.feedbackAt} is null)`));
  return row ?? { acknowledgeDueSoon: 0, acknowledgeOverdue: 0, feedbackDueSoon: 0, feedbackOverdue: 0 };
}
