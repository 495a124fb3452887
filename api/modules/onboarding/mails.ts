import type { OutgoingMail } from "../../lib/mailer.ts";
import { consoleUrl, type MailLinkConfig } from "../auth/magic-link.ts";

/** The one mail of sign-up: the confirmation link, or word that the address already has an account. */

export const CONFIRM_SIGN_UP_SUBJECT = "Confirm your email address";

/** Where the link lands: the spec's /verify/:code on the product's own host (decision 036). */
export const CONFIRMATION_PATH = "/verify/";

export function confirmationMail(config: MailLinkConfig, to: string, code: string): OutgoingMail {
  return {
    to,
    subject: CONFIRM_SIGN_UP_SUBJECT,
    text: [
      "Thank you for signing up to the admin console.",
      "",
      "To confirm that this email address is yours and finish signing up, open this link within one day:",
      consoleUrl(config, `${CONFIRMATION_PATH}${code}`),
      "",
      "If you did not sign up, ignore this email: nothing is created without it.",
      "",
    ].join("\n"),
  };
}

/** Sent instead of a link when the address has an account: the page said the same either way. */
export function existingAccountMail(config: MailLinkConfig, to: string): OutgoingMail {
  return {
    to,
    subject: CONFIRM_SIGN_UP_SUBJECT,
    text: [
      "Someone tried to sign up to the admin console with this email address, but it already has an account.",
      "",
      "To use it, log in here (or choose Forgot Password on that page):",
      consoleUrl(config, "/admin"),
      "",
      "If it was not you, ignore this email: nothing was changed.",
      "",
    ].join("\n"),
  };
}
