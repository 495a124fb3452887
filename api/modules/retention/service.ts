import { eq } from "drizzle-orm";
import { organisations, reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError, forbidden } from "../../lib/errors.ts";
import { RETENTION_WARNING_DAYS } from "../../shared/retention.ts";
import { isSuperAdmin } from "../access/policy.ts";
import { addCalendarMonths } from "../legal-clocks/clocks.ts";
import { changeReport } from "../reports/events.ts";
import { managesReportOrganisation } from "../reports/life.ts";
import { isTerminal } from "../reports/policy.ts";
import type { ReportView } from "../reports/views.ts";

/** Legal hold and what the report shows of retention (decision 052). */

export const ALREADY_HELD = "Report is already on legal hold.";
export const NOT_HELD = "Report is not on legal hold.";
export const MANAGERS_ONLY_HOLD = "Only owners and admins of the report's organisation can change its legal hold.";
export const ACTION_LEGAL_HOLD = "LegalHold";
export const ACTION_LEGAL_HOLD_RELEASE = "LegalHoldRelease";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ReportRetention {
  legalHold: boolean;
  closedAt: Date | null;
  /** When retention will delete the report; null when retention is off, or the report is held or open. */
  deletionDueAt: Date | null;
}

export interface RetentionTimes {
  closedAt: Date | null;
  legalHold: boolean;
  retentionWarnedAt: Date | null;
  retentionMonths: number | null;
  closed: boolean;
  organisationArchived: boolean;
}

/** The date the sweep (sweep.ts, sql.ts) will delete on, computed the same way in memory. */
export function deletionDueAt(times: RetentionTimes, now: Date): Date | null {
  if (!times.closedAt || !times.closed || times.legalHold || times.retentionMonths === null || times.organisationArchived) return null;
  const date = addCalendarMonths(times.closedAt, times.retentionMonths);
  const window = RETENTION_WARNING_DAYS * DAY_MS;
  const warnedAt = times.retentionWarnedAt?.getTime() ?? null;
  // A warning sent before this date's window was for an earlier, longer retention: it does not count.
  if (warnedAt !== null && warnedAt >= date.getTime() - window) return new Date(Math.max(date.getTime(), warnedAt + window));
  // Not yet warned: the warning goes out at the window's start, or at the next sweep if that passed,
  // and the deletion never sooner than a full window after it.
  return new Date(Math.max(date.getTime(), now.getTime() + window));
}

/** Read once per report per request: the three fields of the report type share it. */
const loaded = new WeakMap<object, Promise<ReportRetention>>();

/** The report's retention state; the parent field already checked that the reader sees it. */
export function reportRetention(ctx: Ctx, report: Pick<ReportView, "id" | "status">, now = new Date()): Promise<ReportRetention> {
  let state = loaded.get(report);
  if (!state) {
    state = ctx.db
      .select({
        closedAt: reportSubmissions.closedAt,
        legalHold: reportSubmissions.legalHold,
        retentionWarnedAt: reportSubmissions.retentionWarnedAt,
        deletedAt: reportSubmissions.deletedAt,
        retentionMonths: organisations.retentionMonths,
        organisationArchived: organisations.archived,
      })
      .from(reportSubmissions)
      .innerJoin(organisations, eq(organisations.id, reportSubmissions.organisationId))
      .where(eq(reportSubmissions.id, report.id))
      .limit(1)
      .then(([row]) => {
        if (!row) return { legalHold: false, closedAt: null, deletionDueAt: null };
        const closed = isTerminal(report.status) && row.deletedAt === null;
        return { legalHold: row.legalHold, closedAt: row.closedAt, deletionDueAt: deletionDueAt({ ...row, closed }, now) };
      });
    loaded.set(report, state);
  }
  return state;
}

/**
 * Puts a report on legal hold or releases it: owners and admins of its organisation and super
 * admins. Either way the warning stamp is cleared, so a released report is warned afresh and
 * never deleted sooner than the warning window after its release.
 */
export function setLegalHold(ctx: Ctx, id: unknown, hold: boolean): Promise<ReportView> {
  return changeReport(ctx, id, "ReportSubmissionLegalHold", async (tx, access) => {
    // A manager of another organisation may see the report through its team; that is not enough.
    if (!isSuperAdmin(access.actor) && !managesReportOrganisation(access)) throw forbidden(MANAGERS_ONLY_HOLD);
    if (access.submission.legalHold === hold) throw new UserError("CONFLICT", hold ? ALREADY_HELD : NOT_HELD);
    await tx
      .update(reportSubmissions)
      .set({ legalHold: hold, legalHoldAt: hold ? new Date() : null, legalHoldByUserId: hold ? access.actor.userId : null, retentionWarnedAt: null })
      .where(eq(reportSubmissions.id, access.submission.id));
    return { action: hold ? ACTION_LEGAL_HOLD : ACTION_LEGAL_HOLD_RELEASE };
  });
}
