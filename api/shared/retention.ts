/**
 * Retention (docs/decisions/052-retention.md): closed reports are deleted a number of calendar
 * months after closing, per organisation, off by default. In one place for the server and the console.
 */

export const RETENTION_MONTHS_MIN = 1;
export const RETENTION_MONTHS_MAX = 120;
/** The organisation's owners are warned this many days before a report is deleted, and never less. */
export const RETENTION_WARNING_DAYS = 14;

export const RETENTION_SETTING_LABEL = "Delete closed reports after (months)";
export const RETENTION_MONTHS_INVALID = `Must be a whole number of months from ${RETENTION_MONTHS_MIN} to ${RETENTION_MONTHS_MAX}, or Off`;
export const LEGAL_HOLD_LABEL = "Legal hold";
