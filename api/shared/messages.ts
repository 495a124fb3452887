/** The spec's user-facing texts that both the server and the pages use, spelt once (typos included). */
export const ORGANISATION_UNAVAILABLE = "Organisation was not found or is currently suspended.";
export const REPORT_FORM_NOT_FOUND_REPORTER = "Report Form was not found or not longer exists.";
export const CREDENTIALS_PROBLEM = "There was a problem reading your credentials. Please sign in and try again.";
export const ATTACHMENTS_TOO_LARGE = "Files exceeds total allowed attachment size. Please delete or compress files and try again.";

// Account access (spec §2 "Account access (staff)", §8).
export const FORGOT_PASSWORD_ANSWER = "If an account is associated with this email address, you’ll receive a password reset link shortly.";
export const INVALID_RESET_LINK = "Invalid Password Reset Link provided.";
export const PASSWORD_RESET_DONE = "Your password has been updated. Press the button below to login.";
export const VERIFY_TOKEN_REQUIRED = "Verify Token is required";
/** Not spelt by the spec (decision 029): said for an unknown, spent or expired verification code. */
export const VERIFICATION_CODE_INVALID = "Verification code has expired or is invalid, please request a new one.";
export const ACCOUNT_VERIFIED = "Your account has been verified.";

/** Guests, and anyone working another organisation's reports, need two-factor authentication (spec, admin console §2, §8). */
export const TWO_FACTOR_FOR_OTHER_ORGANISATIONS = "2FA is required to manage report submissions from different organisations.";
export const TWO_FACTOR_FOR_INVITES = "2FA is required to accept invites.";

// Onboarding (spec, reporter and access §2, §5, §8; decision 036).
export const INVALID_INVITE = "Invalid invite link given or was expired. Please contact the organisation admin to receive a new one.";
export const ALMOST_DONE = "Almost done...";
export const CONFIRMATION_SENT = "We have sent an email with a confirmation link to your email address. Please allow 5-10 minutes for this message to arrive.";
export const WRONG_SSO_ACCOUNT = "Wrong account selected, please try again.";
/** Not spelt by the spec (decision 037): a priced plan while this server collects no payments. */
export const PAYMENT_NOT_AVAILABLE = "This plan needs a payment, and this server does not take payments yet. Please choose a free plan.";
