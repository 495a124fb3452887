import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** A real SMTP server on 127.0.0.1 that accepts everything and keeps what it received. */

export interface ReceivedMail {
  from: string | null;
  to: string[];
  raw: string;
}

export interface TestSmtpServer {
  url: string;
  messages: ReceivedMail[];
  /** Resolves once at least `count` messages arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  stop(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", callback);
      stream.on("end", () => {
        const mailFrom = session.envelope.mailFrom;
        messages.push({
          from: mailFrom ? mailFrom.address : null,
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  let stopped = false;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} message(s), received ${messages.length}`);
        await Bun.sleep(20);
      }
      return messages;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A mail's text as a reader sees it: quoted-printable soft breaks joined and escapes decoded. */
export function readableMail(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
