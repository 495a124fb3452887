/** Staff sessions end after 30 minutes without a request, and 12 hours after sign-in regardless. */
export const STAFF_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
export const STAFF_ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
/** lastSeenAt is refreshed at most this often, so reads do not each cost a write. */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;

export const STAFF_COOKIE = "lantern_session";

/**
 * Failed old passwords on the profile's password change (a signed-in user): this many are free, then
 * each further try must wait longer. Sign-in itself uses proof of work instead (abuse/guard.ts).
 */
export const FREE_LOGIN_FAILURES = 5;
export const MAX_LOGIN_DELAY_SECONDS = 5 * 60;

/** Seconds the account must wait after `failures` failed attempts; 0 when it may try now. */
export function loginDelaySeconds(failures: number): number {
  if (failures < FREE_LOGIN_FAILURES) return 0;
  return Math.min(MAX_LOGIN_DELAY_SECONDS, 2 ** (failures - FREE_LOGIN_FAILURES + 1));
}
