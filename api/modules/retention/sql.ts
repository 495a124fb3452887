import { and, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { organisations, reportSubmissions, roles, users } from "../../../db/schema/index.ts";
import { RETENTION_WARNING_DAYS } from "../../shared/retention.ts";
import { TERMINAL_SUBMISSION_STATUSES } from "../../shared/enums.ts";

/**
 * Retention's dates as SQL (decision 052). Months are added to the UTC wall time, as the legal
 * clocks do (legal-clocks/sql.ts), so Postgres clamps a missing day to the month's last exactly as
 * `addCalendarMonths` does and the console's date is the sweep's. The caller joins organisations.
 */

export const atTime = (at: Date) => sql`${at.toISOString()}::timestamptz`;
const warningWindow = sql.raw(`interval '${RETENTION_WARNING_DAYS} days'`);

/** closedAt + retentionMonths calendar months. */
export const deletionDateSql = sql`((${reportSubmissions.closedAt} at time zone 'UTC' + make_interval(months => ${organisations.retentionMonths})) at time zone 'UTC')`;

/**
 * Reports retention applies to: received, closed (the status too: a report re-opened by a staff
 * reply keeps its old closedAt until it closes again), not on hold, not deleted, in an active
 * organisation with retention on. Its first terms are the partial index's predicate.
 */
export const retained = (): SQL =>
  and(
    isNotNull(reportSubmissions.closedAt),
    eq(reportSubmissions.legalHold, false),
    isNull(reportSubmissions.deletedAt),
    eq(reportSubmissions.completed, true),
    inArray(reportSubmissions.status, [...TERMINAL_SUBMISSION_STATUSES]),
    isNotNull(organisations.retentionMonths),
    eq(organisations.archived, false),
  )!;

/** A warning counts for a deletion date only if it was sent within its window (not for an earlier, longer retention's). */
const warnedForThisDate = sql`(${reportSubmissions.retentionWarnedAt} is not null and ${reportSubmissions.retentionWarnedAt} >= ${deletionDateSql} - ${warningWindow})`;

/** Within the warning window and not yet warned for this date. */
export const warningDue = (now: Date): SQL => sql`(not ${warnedForThisDate} and ${deletionDateSql} - ${warningWindow} <= ${atTime(now)})`;

/** Deleted no earlier than the date, and never sooner than the warning window after the warning. */
export const effectiveDeletionSql = sql`greatest(${deletionDateSql}, ${reportSubmissions.retentionWarnedAt} + ${warningWindow})`;
export const deletionDue = (now: Date): SQL => sql`(${warnedForThisDate} and ${effectiveDeletionSql} <= ${atTime(now)})`;

/** The organisation's owners who are not suspended: who is warned. */
export const ownersOfReportOrganisation = () =>
  sql<string[]>`array(select ${users.email} from ${users} join ${roles} on ${eq(roles.id, users.roleId)} where ${and(
    eq(users.organisationId, reportSubmissions.organisationId),
    eq(roles.name, "ORGANISATION_OWNER"),
    eq(users.suspended, false),
  )})`;
