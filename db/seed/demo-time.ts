const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A moment `days` before now (fractions allowed: 0.5 is twelve hours). Seeded dates are relative
 * so the demo always looks recent, whatever day it is seeded.
 */
export function daysAgo(days: number, now: Date = new Date()): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

/** The calendar date `days` before now, as a Date widget stores it (YYYY-MM-DD). */
export function isoDateDaysAgo(days: number, now: Date = new Date()): string {
  return daysAgo(days, now).toISOString().slice(0, 10);
}

/** The start of the UTC day of `at`: what a reporter's or the system's moments are stored as (decision 064). */
export function utcDayStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}
