import { randomBytes } from "node:crypto";
import { mkdir, rename, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import MailComposer from "nodemailer/lib/mail-composer";
import type { Mailer, OutgoingMail } from "./mailer.ts";
import { observeMail } from "./metrics.ts";

/**
 * The embedded mode's mail: each message becomes a complete RFC 5322 `.eml` file that any mail
 * client opens, so sign-in links and invites work without an SMTP server. File names sort by time.
 */

/** Builds the exact bytes an SMTP server would receive (headers, Date, Message-ID, MIME parts). */
async function composeMessage(from: string, mail: OutgoingMail): Promise<Buffer> {
  const composer = new MailComposer({
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html === undefined ? {} : { html: mail.html }),
  });
  return composer.compile().build();
}

export function createOutboxMailer(config: { directory: string; from: string }): Mailer {
  return {
    kind: "outbox",

    send: (mail) => observeMail("outbox", () => writeToOutbox(config, mail)),

    async close() {
      // Nothing is held open between messages.
    },
  };
}

async function writeToOutbox(config: { directory: string; from: string }, mail: OutgoingMail): Promise<void> {
  const message = await composeMessage(config.from, mail);
  // Messages hold sign-in links: only the server's user may read them.
  await mkdir(config.directory, { recursive: true, mode: 0o700 });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const name = `${stamp}-${randomBytes(6).toString("hex")}.eml`;
  // A reader polling for *.eml never sees a half-written message.
  const temporary = join(config.directory, `.${name}.tmp`);
  try {
    await writeFile(temporary, message, { mode: 0o600, flag: "wx" });
    await rename(temporary, join(config.directory, name));
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
