import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { organisations, reportSubmissions } from "../../../db/schema/index.ts";
import { ACKNOWLEDGE_DUE_SOON_DAYS, ACKNOWLEDGE_WITHIN_DAYS, FEEDBACK_DUE_SOON_DAYS, FEEDBACK_WITHIN_MONTHS } from "../../shared/legal-clocks.ts";

/**
 * The deadlines of clocks.ts as SQL, for the dashboard's counts and the reminder sweep. Months are
 * added to the UTC wall time, so the session's time zone cannot move a deadline, and Postgres
 * clamps a missing day to the month's last exactly as `addCalendarMonths` does.
 */

export const atTime = (at: Date) => sql`${at.toISOString()}::timestamptz`;

const days = (n: number) => sql.raw(`interval '${n} days'`);

export const acknowledgeBySql = sql`(${reportSubmissions.completedAt} + ${days(ACKNOWLEDGE_WITHIN_DAYS)})`;
export const feedbackBySql = sql`((coalesce(${reportSubmissions.acknowledgedAt}, ${acknowledgeBySql}) at time zone 'UTC' + ${sql.raw(`interval '${FEEDBACK_WITHIN_MONTHS} months'`)}) at time zone 'UTC')`;

/**
 * Reports whose clocks run: received, not deleted, not archived, not a test, in an organisation with
 * the clocks on. The caller joins organisations. The `completed and deleted_at is null` terms match
 * the partial indexes' predicates.
 */
export const clocksRunning = (): SQL =>
  and(
    eq(reportSubmissions.completed, true),
    isNull(reportSubmissions.deletedAt),
    eq(reportSubmissions.archived, false),
    eq(reportSubmissions.isTest, false),
    eq(organisations.legalClocksEnabled, true),
  )!;

export const awaitingAcknowledgement = (): SQL => and(clocksRunning(), isNull(reportSubmissions.acknowledgedAt))!;
export const awaitingFeedback = (): SQL => and(clocksRunning(), isNull(reportSubmissions.feedbackAt))!;

/** Not yet past the deadline, but within the window before it. */
export const dueSoon = (deadline: SQL, windowDays: number, now: Date): SQL => sql`(${deadline} >= ${atTime(now)} and ${deadline} <= ${atTime(now)} + ${days(windowDays)})`;
export const overdue = (deadline: SQL, now: Date): SQL => sql`(${deadline} < ${atTime(now)})`;

export const acknowledgeDueSoon = (now: Date) => dueSoon(acknowledgeBySql, ACKNOWLEDGE_DUE_SOON_DAYS, now);
export const feedbackDueSoon = (now: Date) => dueSoon(feedbackBySql, FEEDBACK_DUE_SOON_DAYS, now);
