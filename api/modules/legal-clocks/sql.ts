import { and, isNull, sql, type SQL, type SQLWrapper } from "drizzle-orm";
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
 * the partial indexes' predicates, and are written out rather than compared with parameters: a
 * prepared statement's generic plan cannot tell that `completed = $1` implies `completed`, and would
 * read the whole table instead of the index (decision 059).
 */
export const clocksRunning = (): SQL =>
  sql`(${reportSubmissions.completed} and ${reportSubmissions.deletedAt} is null and not ${reportSubmissions.archived} and not ${reportSubmissions.isTest} and ${organisations.legalClocksEnabled})`;

export const awaitingAcknowledgement = (): SQL => and(clocksRunning(), isNull(reportSubmissions.acknowledgedAt))!;
export const awaitingFeedback = (): SQL => and(clocksRunning(), isNull(reportSubmissions.feedbackAt))!;

/** Not yet past the deadline, but within the window before it. */
export const dueSoon = (deadline: SQL, windowDays: number, now: Date): SQL => sql`(${deadline} >= ${atTime(now)} and ${deadline} <= ${atTime(now)} + ${days(windowDays)})`;
export const overdue = (deadline: SQL, now: Date): SQL => sql`(${deadline} < ${atTime(now)})`;

export const acknowledgeDueSoon = (now: Date) => dueSoon(acknowledgeBySql, ACKNOWLEDGE_DUE_SOON_DAYS, now);
export const feedbackDueSoon = (now: Date) => dueSoon(feedbackBySql, FEEDBACK_DUE_SOON_DAYS, now);

const DAY_MS = 24 * 60 * 60 * 1000;
/** Covers a daylight-saving hour in `+ interval '7 days'` when the session's zone is not UTC. */
const SLACK_DAYS = 1;
const MONTH_DAYS = { fewest: 28, most: 31 };
const daysFrom = (now: Date, n: number) => atTime(new Date(now.getTime() + n * DAY_MS));
const between = (column: SQL | SQLWrapper, from: number, to: number, now: Date): SQL => sql`(${column} >= ${daysFrom(now, from)} and ${column} <= ${daysFrom(now, to)})`;

/**
 * A range on an indexed column holding every report whose acknowledgement is due soon (and a few
 * more, which acknowledgeDueSoon then removes): the deadline is the receipt plus 7 days. The
 * deadline is an expression no index serves, so without this range the sweep read every report of
 * the organisation each minute (decision 059). Served by report_submissions_acknowledge_due_idx.
 */
export const acknowledgeDueWindow = (now: Date): SQL =>
  between(reportSubmissions.completedAt, -ACKNOWLEDGE_WITHIN_DAYS - SLACK_DAYS, ACKNOWLEDGE_DUE_SOON_DAYS - ACKNOWLEDGE_WITHIN_DAYS + SLACK_DAYS, now);

/** The indexed start of the feedback clock: the acknowledgement, or (none yet) the receipt. */
export const feedbackStartSql = sql`coalesce(${reportSubmissions.acknowledgedAt}, ${reportSubmissions.completedAt})`;

/**
 * The same for feedback: the deadline is FEEDBACK_WITHIN_MONTHS after the acknowledgement, or after
 * the receipt plus ACKNOWLEDGE_WITHIN_DAYS when there is none, so it lies between feedbackStartSql
 * plus the fewest days those months can hold and plus the most (and the 7 days). Served by
 * report_submissions_feedback_due_idx.
 */
export const feedbackDueWindow = (now: Date): SQL =>
  between(
    feedbackStartSql,
    -(ACKNOWLEDGE_WITHIN_DAYS + FEEDBACK_WITHIN_MONTHS * MONTH_DAYS.most) - SLACK_DAYS,
    FEEDBACK_DUE_SOON_DAYS - FEEDBACK_WITHIN_MONTHS * MONTH_DAYS.fewest + SLACK_DAYS,
    now,
  );
