/** The spec's user-facing texts that both the server and the pages use, spelt once (typos included). */
export const ORGANISATION_UNAVAILABLE = "Organisation was not found or is currently suspended.";
export const REPORT_FORM_NOT_FOUND_REPORTER = "Report Form was not found or not longer exists.";
export const CREDENTIALS_PROBLEM = "There was a problem reading your credentials. Please sign in and try again.";
export const ATTACHMENTS_TOO_LARGE = "Files exceeds total allowed attachment size. Please delete or compress files and try again.";
/** Guests, and anyone working another organisation's reports, need two-factor authentication (spec, admin console §2, §8). */
export const TWO_FACTOR_FOR_OTHER_ORGANISATIONS = "2FA is required to manage report submissions from different organisations.";
export const TWO_FACTOR_FOR_INVITES = "2FA is required to accept invites.";
