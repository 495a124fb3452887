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
