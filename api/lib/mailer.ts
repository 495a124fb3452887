import type { MailConfig } from "../config.ts";
import { createOutboxMailer } from "./mailer-outbox.ts";

/**
 * Outgoing mail: an on-disk outbox in the embedded mode, SMTP otherwise.
 *
 * Mail leaves the platform in the clear and sits in other people's mailboxes, so a message must
 * never contain report content, answers, attachments or anything that could identify a reporter.
 * That is the callers' concern (they send notices and links only); this module only delivers.
 */

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  kind: "outbox" | "smtp";
  /** Rejects when the message could not be handed over; the caller decides whether to retry. */
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}

export interface MailerOptions {
  /** How long to wait for the SMTP server to accept a connection and greet (nodemailer's defaults are minutes). */
  connectionTimeoutMs?: number;
}

/**
 * What may be logged about a failed send: the error's code or class, never its message, which for
 * SMTP rejections quotes the recipient's address.
 */
export function mailFailureReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" || typeof code === "number") return String(code);
  return error instanceof Error ? error.name : typeof error;
}

export function createMailer(config: MailConfig, options: MailerOptions = {}): Mailer {
  if (config.kind === "outbox") return createOutboxMailer(config);
  // nodemailer is a seventh of a second of start-up CPU (decision 023): it loads with the first mail.
  let loading: Promise<Mailer> | null = null;
  const smtp = () => (loading ??= import("./mailer-smtp.ts").then((module) => module.createSmtpMailer(config, options)));
  return {
    kind: "smtp",
    send: async (mail) => (await smtp()).send(mail),
    // Nothing to close when no mail was ever sent.
    close: async () => {
      if (loading) await (await loading).close();
    },
  };
}
