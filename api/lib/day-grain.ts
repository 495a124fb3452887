import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/**
 * A reporter's moments are stored by the day (docs/decisions/064-reporter-activity-grain.md): what a
 * database dump holds is what the console could show, and no finer.
 */

/** The start of the current UTC day, as the database sees the transaction's time. */
export const utcToday = (): SQL => sql`date_trunc('day', now(), 'UTC')`;

/**
 * Today's start, or one microsecond after `latest` when that is later: rows stored at a day's start
 * keep the order they were written in, with nothing of the hour. `latest` is the newest such row of
 * the same group (null when there is none).
 */
export const nextInUtcDay = (latest: SQLWrapper): SQL => sql`greatest(${utcToday()}, ${latest} + interval '1 microsecond')`;

/** The UTC day `at` falls on, as the start of that day. */
export function utcDay(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}
