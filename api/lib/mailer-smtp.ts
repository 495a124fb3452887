import { createTransport } from "nodemailer";
import type { MailerOptions, Mailer } from "./mailer.ts";
import { observeMail } from "./metrics.ts";

/**
 * Mail through an SMTP server (smtp:// or smtps://, credentials in the URL). A pool keeps a few
 * connections open so bursts of notifications do not each pay for a handshake.
 */
export function createSmtpMailer(config: { url: string; from: string }, options: MailerOptions = {}): Mailer {
  const timeouts =
    options.connectionTimeoutMs === undefined
      ? {}
      : { connectionTimeout: options.connectionTimeoutMs, greetingTimeout: options.connectionTimeoutMs };
  // logger/debug stay off: nodemailer's debug log would write recipients and message bodies.
  const transport = createTransport({ url: config.url, pool: true, logger: false, debug: false, ...timeouts }, { from: config.from });

  return {
    kind: "smtp",

    // The pool queues what its connections cannot take yet: a send is counted until the server accepts it.
    send: (mail) =>
      observeMail("smtp", async () => {
        await transport.sendMail({
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.html === undefined ? {} : { html: mail.html }),
        });
      }),

    async close() {
      transport.close();
    },
  };
}
