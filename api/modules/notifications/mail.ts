import type { Services } from "../../context.ts";
import { logError, logInfo } from "../../lib/log.ts";
import { mailFailureReason, type OutgoingMail } from "../../lib/mailer.ts";

/**
 * The one way staff notifications are mailed: new reports and messages (notifier.ts), stale
 * messages, legal deadlines and retention warnings. Each address gets its own mail, so no one sees
 * the others, and a mail says only that something happened, with a link to the console.
 */

export function notificationMail(to: string, subject: string, url: string): OutgoingMail {
  return { to, subject, text: [`${subject}.`, "", "Sign in to the admin console to view it:", url, ""].join("\n") };
}

export interface MailOutcome {
  sent: number;
  failed: number;
  /** The last failure's code or class, for a log line or a retry's record; never its message. */
  reason: string | null;
}

/** Mails every address, counting and logging (without addresses) the ones that could not be handed over. */
export async function mailEveryAddress(services: Services, kind: string, addresses: string[], subject: string, url: string): Promise<MailOutcome> {
  const outcome: MailOutcome = { sent: 0, failed: 0, reason: null };
  for (const address of addresses) {
    try {
      await services.mailer.send(notificationMail(address, subject, url));
      outcome.sent += 1;
    } catch (error) {
      outcome.failed += 1;
      outcome.reason = mailFailureReason(error);
      logError("Could not send a notification email", undefined, { kind, reason: outcome.reason });
    }
  }
  logInfo("Sent notification emails", { kind, sent: outcome.sent, failed: outcome.failed });
  return outcome;
}
