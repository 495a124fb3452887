import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { backgroundJobs, organisationEmailSubscribers, reportSubmissions, userActivities } from "../../../db/schema/index.ts";
import { JOB_TIMING, startJobWorker } from "../../../api/lib/job-worker.ts";
import { NEW_MESSAGE_JOB, NEW_REPORT_JOB, NEW_REPORT_SUBJECT, notificationJobHandlers } from "../../../api/modules/notifications/notifier.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import type { TestServer } from "../../helpers/server.ts";
import type { TestSmtpServer } from "../../helpers/smtp-server.ts";
import { startMailingDemo, subjectOf } from "../../helpers/notification-mail.ts";

let smtp: TestSmtpServer;
let server: TestServer;
let main: Awaited<ReturnType<typeof demoForm>>;

const SUBSCRIBER = "jobs-subscriber@demo.test";
const SECRET_ANSWER = "The warehouse manager takes cash from the till";

/** The mail server as the server's mailer reaches it: refusing every mail while `down`. */
const mailServer = { down: false };

beforeAll(async () => {
  let demoId: string;
  ({ smtp, server, demoId, main } = await startMailingDemo());
  await server.db.insert(organisationEmailSubscribers).values({ organisationId: demoId, firstName: "Jo", lastName: "Subscriber", email: SUBSCRIBER });
  const mailer = server.lantern.services.mailer;
  const send = mailer.send.bind(mailer);
  mailer.send = async (mail) => {
    if (mailServer.down) throw Object.assign(new Error(`connect ECONNREFUSED for ${mail.to}`), { code: "ECONNREFUSED" });
    return send(mail);
  };
});
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

const mailsTo = (address: string) => smtp.messages.filter((mail) => mail.to.includes(address));
const jobsAbout = (subjectId: string) => server.db.select().from(backgroundJobs).where(eq(backgroundJobs.subjectId, subjectId));

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await Bun.sleep(25);
  }
}

async function newReport() {
  const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), main.form.id, main.widgets, { w_summary: [SECRET_ANSWER] });
  const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
  return { credentials, report: row! };
}

describe("new-report mail as a job", () => {
  test("a mail the mail server refused is sent on the job's retry, once, and its job names the report by id only", async () => {
    mailServer.down = true;
    const before = mailsTo(SUBSCRIBER).length;
    let report: typeof reportSubmissions.$inferSelect;
    try {
      ({ report } = await newReport());
      const [failed] = await until(
        () => jobsAbout(report.id),
        (rows) => rows[0]?.attempts === 1 && rows[0].lastError !== null,
      );
      expect(failed).toMatchObject({ kind: NEW_REPORT_JOB, state: "queued", attempts: 1, lastError: "ECONNREFUSED" });
      // Its retry is a back-off away, not at once.
      expect(failed!.runAt.getTime()).toBeGreaterThan(Date.now() + JOB_TIMING.retry.baseDelayMs / 2);
      expect(mailsTo(SUBSCRIBER).length).toBe(before);
      for (const secret of [SECRET_ANSWER, SUBSCRIBER, "@"]) expect(JSON.stringify(failed)).not.toContain(secret);
    } finally {
      mailServer.down = false;
    }
    // The back-off has passed (a worker whose clock is past it, as every instance's will be).
    const later = { ...JOB_TIMING, pollMs: 3_600_000, now: () => Date.now() + JOB_TIMING.retry.baseDelayMs + 1_000 };
    const worker = startJobWorker(server.db, notificationJobHandlers(server.lantern.services), later);
    await worker.runDue();
    await worker.stop();
    const mails = mailsTo(SUBSCRIBER).slice(before);
    expect(mails.map(subjectOf)).toEqual([NEW_REPORT_SUBJECT]);
    expect((await jobsAbout(report!.id))[0]).toMatchObject({ state: "done", attempts: 2, lastError: null });
    const audit = await server.db.select().from(userActivities).where(and(eq(userActivities.objectId, report!.id), eq(userActivities.action, "NotifyNewReport")));
    expect(audit.length).toBe(1);
  });
});

describe("forged or foreign message events", () => {
  test("an event naming no reporter's message, or no id at all, queues nothing and mails nobody", async () => {
    const { report } = await newReport();
    await until(
      () => jobsAbout(report.id),
      (rows) => rows[0]?.state === "done",
    );
    const count = smtp.messages.length;
    const unknown = crypto.randomUUID();
    const topic = `conversation.message.${report.id}`;
    for (const payload of [{ action: "new", messageId: unknown }, { action: "new", messageId: "x'); delete from background_jobs; --" }, { action: "new" }, { action: "seen", messageId: unknown }]) {
      await server.lantern.services.pubsub.publish(topic, payload);
    }
    await Bun.sleep(500);
    expect(await server.db.select().from(backgroundJobs).where(eq(backgroundJobs.kind, NEW_MESSAGE_JOB))).toEqual([]);
    expect(smtp.messages.length).toBe(count);
    // The forged id did not reach the table as anything but a refused value: the report's job is still there.
    expect((await jobsAbout(report.id)).length).toBe(1);
  });
});

describe("a reporter's message", () => {
  const SEND = `mutation ($text: String!) { reportConversationSendMessage(input: { type: Text, message: $text }) { id } }`;

  test("has its mail job saved with it, even when no instance hears its event", async () => {
    const { credentials } = await newReport();
    const reporter = new ReporterClient(server, "demo.localhost");
    expect((await reporter.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword })).status).toBe(200);
    // The event is lost (as with an instance stopping between the commit and its NOTIFY).
    const pubsub = server.lantern.services.pubsub;
    const publish = pubsub.publish.bind(pubsub);
    pubsub.publish = async (topic, payload) => (topic.startsWith("conversation.message.") ? undefined : publish(topic, payload));
    let messageId: string;
    try {
      const sent = await reporter.gql<{ reportConversationSendMessage: { id: string } }>(SEND, { text: SECRET_ANSWER });
      expect(sent.errors).toBeUndefined();
      messageId = sent.data!.reportConversationSendMessage.id;
    } finally {
      pubsub.publish = publish;
    }
    const [job] = await jobsAbout(messageId);
    expect(job).toMatchObject({ kind: NEW_MESSAGE_JOB, dedupeKey: `conversation.message:${messageId}` });
    for (const secret of [SECRET_ANSWER, "@"]) expect(JSON.stringify(job)).not.toContain(secret);
  });
});
