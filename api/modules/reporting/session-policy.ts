/** Reporter sessions: short, because a shared or seized device must not keep a report open. */
export const REPORTER_COOKIE = "lantern_report";
export const REPORTER_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
export const REPORTER_ABSOLUTE_TIMEOUT_MS = 4 * 60 * 60 * 1000;
export const REPORTER_TOUCH_INTERVAL_MS = 60 * 1000;
