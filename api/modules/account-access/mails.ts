import type { Config } from "../../config.ts";
import type { OutgoingMail } from "../../lib/mailer.ts";
import { consoleUrl } from "../reports/forward-email.ts";

/**
 * The mails of account access. Each says what it is for and what to do if the reader did not ask
 * for it; none names an organisation, a report or anyone else: mail is read on shared screens.
 */

type LinkConfig = Pick<Config, "protocol" | "appDomain" | "port" | "production">;

export const RESET_PASSWORD_SUBJECT = "Reset your password";
export const VERIFY_ACCOUNT_SUBJECT = "Verify your account";
export const EMAIL_CHANGED_SUBJECT = "Your email address was changed";

export function resetPasswordMail(config: LinkConfig, to: string, token: string): OutgoingMail {
  const url = consoleUrl(config, `/admin/reset-password/${token}`);
  return {
    to,
    subject: RESET_PASSWORD_SUBJECT,
    text: [
      "Someone asked to reset the password of the admin console account with this email address.",
      "",
      "To choose a new password, open this link within one hour:",
      url,
      "",
      "The link works once. If you did not ask for it, ignore this email: your password stays as it is.",
      "",
    ].join("\n"),
  };
}

export function verificationMail(config: LinkConfig, to: string, code: string): OutgoingMail {
  const url = consoleUrl(config, `/admin/verify/${code}`);
  return {
    to,
    subject: VERIFY_ACCOUNT_SUBJECT,
    text: [
      "Please confirm that this email address belongs to your admin console account.",
      "",
      "Open this link within one day:",
      url,
      "",
      "Or enter this Verification Code on the Verify Account page:",
      code,
      "",
      "If you did not expect this email, you can ignore it.",
      "",
    ].join("\n"),
  };
}

/** To the address an account used to have: the new one is not named, so a mistyped or hostile change does not spread it. */
export function emailChangedMail(to: string): OutgoingMail {
  return {
    to,
    subject: EMAIL_CHANGED_SUBJECT,
    text: [
      "The email address of your admin console account was changed, and mail for the account now goes to the new address.",
      "",
      "If you did not make this change, contact your organisation's admin at once.",
      "",
    ].join("\n"),
  };
}

export const CONFIRM_EMAIL_CHANGE_SUBJECT = "Confirm your new email address";
export const EMAIL_CHANGE_REQUESTED_SUBJECT = "A change of your email address was requested";
export const EMAIL_CHANGE_CANCELLED_SUBJECT = "The change of your email address was cancelled";

/** To the new address: the change takes effect only when this link is opened (decision 061). */
export function confirmEmailChangeMail(config: LinkConfig, to: string, token: string): OutgoingMail {
  return {
    to,
    subject: CONFIRM_EMAIL_CHANGE_SUBJECT,
    text: [
      "Someone asked to use this email address for their admin console account.",
      "",
      "To make it the account's address, open this link within one day:",
      consoleUrl(config, `/admin/confirm-email/${token}`),
      "",
      "Until then the account keeps its old address. If you did not ask for this, ignore this email.",
      "",
    ].join("\n"),
  };
}

/** To the address in use: the new one is not named (a hostile request should not spread it), and the change can be refused. */
export function emailChangeRequestedMail(config: LinkConfig, to: string, token: string): OutgoingMail {
  return {
    to,
    subject: EMAIL_CHANGE_REQUESTED_SUBJECT,
    text: [
      "Someone asked to change the email address of your admin console account.",
      "The change takes effect only when the link sent to the new address is opened; until then, mail keeps coming here.",
      "",
      "If you did not ask for this, cancel the change with this link. It also signs your account out everywhere:",
      consoleUrl(config, `/admin/cancel-email-change/${token}`),
      "",
      "Then change your password, and tell your organisation's admin.",
      "",
    ].join("\n"),
  };
}

export function emailChangeCancelledMail(to: string): OutgoingMail {
  return {
    to,
    subject: EMAIL_CHANGE_CANCELLED_SUBJECT,
    text: ["The change of your admin console account's email address was cancelled, and the account was signed out everywhere.", "", "Its email address stays as it is.", ""].join("\n"),
  };
}
