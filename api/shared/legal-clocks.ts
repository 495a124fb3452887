/**
 * Legal clocks (EU Directive 2019/1937 Art. 9(1)(b),(f); docs/decisions/050-legal-clocks.md): the
 * periods and the "due soon" windows, in one place for the server and the console.
 */

/** Acknowledge within seven days of receipt (the report's completion). */
export const ACKNOWLEDGE_WITHIN_DAYS = 7;
/** Feedback within three calendar months of the acknowledgement (or of the end of the seven days). */
export const FEEDBACK_WITHIN_MONTHS = 3;
/** A clock is "due soon" this close to its deadline; its one reminder goes out then. */
export const ACKNOWLEDGE_DUE_SOON_DAYS = 2;
export const FEEDBACK_DUE_SOON_DAYS = 14;

export const LEGAL_CLOCK_STATES = ["Met", "Late", "Overdue", "DueSoon", "Pending"] as const;
export type LegalClockState = (typeof LEGAL_CLOCK_STATES)[number];

/** What the console shows for each state, in words, never colour alone. */
export const LEGAL_CLOCK_STATE_LABELS: Record<LegalClockState, string> = {
  Met: "Met",
  Late: "Met late",
  Overdue: "Overdue",
  DueSoon: "Due soon",
  Pending: "Not yet due",
};

export const LEGAL_CLOCKS_SETTING_LABEL = "Legal deadlines (acknowledge within 7 days, feedback within 3 months)";
