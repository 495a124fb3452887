// A From/To range of calendar days (YYYY-MM-DD), as the dashboard and the audit log filter by; the server checks again.

export type DateRange = { from: string; to: string };

/** Today in the viewer's calendar, as YYYY-MM-DD (the date input's own format). */
export function todayIso(now: Date = new Date()): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}

export const FUTURE_DATE = 'Date cannot be in the future';
export const DATE_ORDER = 'From date cannot be after To date';

/** A problem with the chosen range, or undefined when it can be asked for. */
export function rangeProblem(range: DateRange, today: string = todayIso()): string | undefined {
  if ((range.from && range.from > today) || (range.to && range.to > today)) return FUTURE_DATE;
  if (range.from && range.to && range.from > range.to) return DATE_ORDER;
  return undefined;
}

/** The GraphQL dateFilter for a range; null when neither end is set. */
export function dateFilterOf(range: DateRange): { from: string | null; to: string | null } | null {
  if (!range.from && !range.to) return null;
  return { from: range.from || null, to: range.to || null };
}
