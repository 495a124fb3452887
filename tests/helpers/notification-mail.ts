import { eq } from "drizzle-orm";
import { organisations } from "../../db/schema/index.ts";
import { seedDemo } from "../../db/seed/demo.ts";
import { demoForm } from "./reporter.ts";
import { startTestServer, type TestServer } from "./server.ts";
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from "./smtp-server.ts";

/** The notification tests' world: a real SMTP server, a seeded test server mailing it, and the demo organisation's main form. */
export interface MailingDemo {
  smtp: TestSmtpServer;
  server: TestServer;
  demoId: string;
  main: Awaited<ReturnType<typeof demoForm>>;
}

export async function startMailingDemo(): Promise<MailingDemo> {
  const smtp = await startSmtpServer();
  const server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  await seedDemo(server.db);
  const main = await demoForm(server, "demo", "Workplace Misconduct Report");
  const [demo] = await server.db.select().from(organisations).where(eq(organisations.slug, "demo"));
  return { smtp, server, demoId: demo!.id, main };
}

export const subjectOf = (mail: ReceivedMail) => /^Subject: (.*)$/m.exec(mail.raw)?.[1];

/** The text part as written: nodemailer sends it quoted-printable, with soft line breaks. */
export const bodyOf = (mail: ReceivedMail) =>
  mail.raw
    .slice(mail.raw.indexOf("\r\n\r\n") + 4)
    .replace(/=\r\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
