import {
  ACKNOWLEDGE_DUE_SOON_DAYS,
  ACKNOWLEDGE_WITHIN_DAYS,
  FEEDBACK_DUE_SOON_DAYS,
  FEEDBACK_WITHIN_MONTHS,
  type LegalClockState,
} from "../../shared/legal-clocks.ts";

/**
 * The legal clocks of one report, computed from its times alone (decision 050). All dates are in
 * UTC: the SQL of the counts and the reminder sweep (sql.ts) computes the same deadlines in UTC.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;

export interface ClockTimes {
  /** Receipt: the report's completion. */
  receivedAt: Date;
  acknowledgedAt: Date | null;
  feedbackAt: Date | null;
}

export interface LegalClocks {
  acknowledgeBy: Date;
  acknowledgedAt: Date | null;
  acknowledgeState: LegalClockState;
  feedbackBy: Date;
  feedbackAt: Date | null;
  feedbackState: LegalClockState;
}

/**
 * `months` calendar months later, at the same UTC time of day. A day the target month lacks falls
 * back to its last day (30 November + 3 months = 28 or 29 February), as Postgres adds an interval,
 * so a deadline never spills into the month after.
 */
export function addCalendarMonths(from: Date, months: number): Date {
  const target = new Date(from.getTime());
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  return target;
}

/** Seven days (7 × 24 hours) after receipt; an acknowledgement at that very instant is in time. */
export const acknowledgeDeadline = (receivedAt: Date) => new Date(receivedAt.getTime() + ACKNOWLEDGE_WITHIN_DAYS * DAY_MS);

/** Three months from the acknowledgement or, while there is none, from the end of the seven days (Art. 9(1)(f)). */
export const feedbackDeadline = (times: ClockTimes) => addCalendarMonths(times.acknowledgedAt ?? acknowledgeDeadline(times.receivedAt), FEEDBACK_WITHIN_MONTHS);

/** Done: Met or Late. Not done: Overdue past the deadline, DueSoon within the window before it, else Pending. */
export function clockState(deadline: Date, doneAt: Date | null, now: Date, dueSoonDays: number): LegalClockState {
  if (doneAt) return doneAt.getTime() <= deadline.getTime() ? "Met" : "Late";
  const left = deadline.getTime() - now.getTime();
  if (left < 0) return "Overdue";
  return left <= dueSoonDays * DAY_MS ? "DueSoon" : "Pending";
}

export function legalClocks(times: ClockTimes, now: Date): LegalClocks {
  const acknowledgeBy = acknowledgeDeadline(times.receivedAt);
  const feedbackBy = feedbackDeadline(times);
  return {
    acknowledgeBy,
    acknowledgedAt: times.acknowledgedAt,
    acknowledgeState: clockState(acknowledgeBy, times.acknowledgedAt, now, ACKNOWLEDGE_DUE_SOON_DAYS),
    feedbackBy,
    feedbackAt: times.feedbackAt,
    feedbackState: clockState(feedbackBy, times.feedbackAt, now, FEEDBACK_DUE_SOON_DAYS),
  };
}
