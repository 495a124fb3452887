// Small formatters shared by reporter pages and the console. No date library:
// the two formats the spec names are simple enough to write out.

const SIZE_UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/** Bytes below 1 KB, otherwise KB, MB… with one decimal, base 1024 (spec section 5). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} bytes`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${SIZE_UNITS[unit]}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  switch (day % 10) {
    case 1:
      return `${day}st`;
    case 2:
      return `${day}nd`;
    case 3:
      return `${day}rd`;
    default:
      return `${day}th`;
  }
}

/** 'Do MMM. YYYY - h:mma' in the viewer's time zone, e.g. '3rd Mar. 2024 - 4:05pm'; undefined for a bad value. */
export function formatDateTime(value: string | Date): string | undefined {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return undefined;
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, '0');
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${ordinal(date.getDate())} ${MONTHS[date.getMonth()]}. ${date.getFullYear()} - ${hour12}:${minutes}${hours < 12 ? 'am' : 'pm'}`;
}

/** 'Do MMM. YYYY' of the UTC day, e.g. '3rd Mar. 2024': for values stored as a day's start, whatever the viewer's time zone. */
export function formatUtcDay(value: string | Date): string | undefined {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return undefined;
  return `${ordinal(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]}. ${date.getUTCFullYear()}`;
}
