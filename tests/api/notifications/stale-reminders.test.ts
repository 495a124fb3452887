import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import { backgroundJobs, organisations, reportConversationMessages, reportConversations, reportSubmissionAssignees, reportSubmissions, userActivities, users } from "../../../db/schema/index.ts";
import { JOB_TIMING } from "../../../api/lib/job-worker.ts";
import { runStaleReminderJobs, sendDueReminders, STALE_MESSAGE_JOB, STALE_REMINDER_LIMIT, staleMessageSubject, startStaleReminders } from "../../../api/modules/notifications/stale-reminders.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { demoStaff, type DemoStaff } from "../../helpers/session.ts";
import type { TestSmtpServer } from "../../helpers/smtp-server.ts";
import { bodyOf, startMailingDemo, subjectOf } from "../../helpers/notification-mail.ts";
import { updateOrganisations } from "../../helpers/organisations.ts";
import { usingPostgres } from "../../setup/template.ts";

/**
 * Reminders of a reporter's message staff have not answered. Time is the sweep's argument: each
 * test sweeps "hours later" at once instead of waiting, and every test has its own report, so mails
 * are told apart by the report's id in their subject.
 */

let smtp: TestSmtpServer;
let server: TestServer;
let as: DemoStaff;
let main: Awaited<ReturnType<typeof demoForm>>;
let demoId: string;

const HOUR = 3_600_000;
const INTERVAL_HOURS = 2;
const SECRET_MESSAGE = "It was the night shift manager on the third floor";
const SEND = `mutation ($id: ID, $text: String!) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $text }) { id } }`;

/** The mail server as the server's mailer reaches it: refusing every mail while `down`. */
const mailServer = { down: false };

beforeAll(async () => {
  ({ smtp, server, demoId, main } = await startMailingDemo());
  const mailer = server.lantern.services.mailer;
  const send = mailer.send.bind(mailer);
  mailer.send = async (mail) => {
    if (mailServer.down) throw Object.assign(new Error(`connect ECONNREFUSED for ${mail.to}`), { code: "ECONNREFUSED" });
    return send(mail);
  };
  await updateOrganisations(server, eq(organisations.id, demoId), { staleMessageIntervalNumber: INTERVAL_HOURS, staleMessageIntervalUnit: "Hour" });
  as = await demoStaff(server);
});
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

type Report = typeof reportSubmissions.$inferSelect;

/** A report, its reporter signed in, and the moment just before its first message. */
async function reportWithMessage(): Promise<{ reporter: ReporterClient; report: Report; sentAt: number }> {
  const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), main.form.id, main.widgets, { w_summary: ["Something happened"] });
  const reporter = new ReporterClient(server, "demo.localhost");
  expect((await reporter.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword })).status).toBe(200);
  const [report] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
  const sentAt = Date.now();
  expect((await reporter.gql(SEND, { text: SECRET_MESSAGE })).errors).toBeUndefined();
  return { reporter, report: report!, sentAt };
}

async function assign(report: Report, members: { email: string; isMuted?: boolean }[]) {
  const rows = await server.db.select().from(users).where(inArray(users.email, members.map((m) => m.email)));
  await server.db.insert(reportSubmissionAssignees).values(members.map((m, i) => ({ submissionId: report.id, userId: rows.find((u) => u.email === m.email)!.id, isOwner: i === 0, isMuted: m.isMuted ?? false })));
}

/** The reminders of one report so far, by recipient. */
const remindersOf = (report: Report) => smtp.messages.filter((mail) => subjectOf(mail) === staleMessageSubject(report.reportId!));
const recipients = (report: Report) => remindersOf(report).flatMap((mail) => mail.to).sort();
/** Sweeps as if `hours` had passed since `from`, then runs the mail jobs due by then, as the server's worker would. */
async function sweep(from: number, hours: number, target: TestServer = server) {
  const at = new Date(from + hours * HOUR);
  await sendDueReminders(target.lantern.services, at);
  await runStaleReminderJobs(target.lantern.services, at);
}

describe("stale-message reminders", () => {
  test("nothing before the interval; once it has passed, one mail each to the owners and admins of an unassigned report, a link only", async () => {
    const { report, sentAt } = await reportWithMessage();
    await sweep(sentAt, INTERVAL_HOURS - 0.01);
    expect(remindersOf(report)).toEqual([]);

    await sweep(sentAt, INTERVAL_HOURS + 0.01);
    expect(recipients(report)).toEqual(["admin@demo.test", "owner@demo.test"]);
    const mail = remindersOf(report)[0]!;
    expect(bodyOf(mail)).toBe(
      `${staleMessageSubject(report.reportId!)}.\r\n\r\nSign in to the admin console to view it:\r\nhttp://app.localhost:3000/admin/manage/reports/overview/${main.form.id}/${report.id}\r\n`,
    );
    expect(mail.raw).not.toContain("night shift");
    const audit = await server.db.select().from(userActivities).where(and(eq(userActivities.objectId, report.id), eq(userActivities.action, "NotifyStaleMessage")));
    expect(audit.map((row) => ({ userId: row.userId, metadata: row.metadata }))).toEqual([{ userId: null, metadata: { reminder: 1 } }]);
  });

  test("once per interval while unanswered: a sweep later in the same interval sends nothing more", async () => {
    const { report, sentAt } = await reportWithMessage();
    await sweep(sentAt, INTERVAL_HOURS + 0.01);
    await sweep(sentAt, INTERVAL_HOURS + 0.5);
    await sweep(sentAt, 2 * INTERVAL_HOURS - 0.01);
    expect(remindersOf(report).length).toBe(2);
    await sweep(sentAt, 2 * INTERVAL_HOURS + 0.02);
    expect(remindersOf(report).length).toBe(4);
  });

  test("an assigned report reminds its team only: a muted or suspended member gets none", async () => {
    const { report, sentAt } = await reportWithMessage();
    await assign(report, [{ email: "member@demo.test" }, { email: "admin@demo.test", isMuted: true }, { email: "guest@demo.test" }]);
    const [guest] = await server.db.update(users).set({ suspended: true }).where(eq(users.email, "guest@demo.test")).returning();
    try {
      await sweep(sentAt, INTERVAL_HOURS + 0.01);
      expect(recipients(report)).toEqual(["member@demo.test"]);
    } finally {
      await server.db.update(users).set({ suspended: false }).where(eq(users.id, guest!.id));
    }
  });

  test("a team whose every member muted the report is not reminded, and the owners and admins are not told instead", async () => {
    const { report, sentAt } = await reportWithMessage();
    await assign(report, [{ email: "member@demo.test", isMuted: true }]);
    await sweep(sentAt, INTERVAL_HOURS + 0.01);
    expect(remindersOf(report)).toEqual([]);
    expect(await server.db.select().from(userActivities).where(and(eq(userActivities.objectId, report.id), eq(userActivities.action, "NotifyStaleMessage")))).toEqual([]);
  });

  test("a staff reply stops the reminders; the reporter's next message starts a new wait", async () => {
    const { reporter, report, sentAt } = await reportWithMessage();
    await assign(report, [{ email: "admin@demo.test" }]);
    await sweep(sentAt, INTERVAL_HOURS + 0.01);
    expect(remindersOf(report).length).toBe(1);
    expect((await as.admin.gql(SEND, { id: report.id, text: "Thank you, we are looking into it" })).errors).toBeUndefined();
    await sweep(sentAt, 3 * INTERVAL_HOURS);
    expect(remindersOf(report).length).toBe(1);

    const againAt = Date.now();
    expect((await reporter.gql(SEND, { text: "Any news?" })).errors).toBeUndefined();
    await sweep(againAt, INTERVAL_HOURS - 0.01);
    expect(remindersOf(report).length).toBe(1);
    await sweep(againAt, INTERVAL_HOURS + 0.01);
    expect(remindersOf(report).length).toBe(2);
  });

  test("closing the report stops them, and re-opening it without a reply brings them back", async () => {
    const { report, sentAt } = await reportWithMessage();
    await assign(report, [{ email: "admin@demo.test" }]);
    const close = await as.admin.gql(`mutation ($id: ID!) { reportSubmissionClose(id: $id, completeStatus: Completed) { id } }`, { id: report.id });
    expect(close.errors).toBeUndefined();
    await sweep(sentAt, INTERVAL_HOURS + 0.01);
    expect(remindersOf(report)).toEqual([]);
    expect((await as.admin.gql(`mutation ($id: ID!) { reportSubmissionOpen(id: $id) { id } }`, { id: report.id })).errors).toBeUndefined();
    await sweep(sentAt, INTERVAL_HOURS + 0.02);
    expect(recipients(report)).toEqual(["admin@demo.test"]);
  });

  test(`a wait is reminded of ${STALE_REMINDER_LIMIT} times at most`, async () => {
    const { report, sentAt } = await reportWithMessage();
    await assign(report, [{ email: "member@demo.test" }]);
    for (let k = 1; k <= STALE_REMINDER_LIMIT + 3; k += 1) await sweep(sentAt, k * INTERVAL_HOURS + 0.01 * k);
    expect(remindersOf(report).length).toBe(STALE_REMINDER_LIMIT);
    const [row] = await server.db.select().from(reportConversations).where(eq(reportConversations.submissionId, report.id));
    expect(row!.remindersSent).toBe(STALE_REMINDER_LIMIT);
  });

  test("the state is the database's: a restarted sweeper neither repeats a reminder nor forgets one that fell due while it was down", async () => {
    const { report, sentAt } = await reportWithMessage();
    await assign(report, [{ email: "member@demo.test" }]);
    await sweep(sentAt, INTERVAL_HOURS + 0.01);
    expect(remindersOf(report).length).toBe(1);
    // A fresh sweeper holds nothing in memory; its first sweep runs as it starts.
    const restart = async (hours: number) => {
      const stop = startStaleReminders(server.lantern.services, { sweepEveryMs: 3_600_000, now: () => sentAt + hours * HOUR });
      await stop();
    };
    await restart(INTERVAL_HOURS + 0.02);
    expect(remindersOf(report).length).toBe(1);
    await restart(2 * INTERVAL_HOURS + 0.5);
    expect(remindersOf(report).length).toBe(2);
  });

  test("a reminder the mail server refused is retried after its back-off and sent once; its job names the report by id only", async () => {
    const { report, sentAt } = await reportWithMessage();
    await assign(report, [{ email: "member@demo.test" }, { email: "owner@demo.test" }]);
    const hours = INTERVAL_HOURS + 0.01;
    mailServer.down = true;
    try {
      await sweep(sentAt, hours);
    } finally {
      mailServer.down = false;
    }
    expect(remindersOf(report)).toEqual([]);
    const jobs = () => server.db.select().from(backgroundJobs).where(and(eq(backgroundJobs.kind, STALE_MESSAGE_JOB), eq(backgroundJobs.subjectId, report.id)));
    const [failed] = await jobs();
    expect(failed).toMatchObject({ state: "queued", attempts: 1, lastError: "ECONNREFUSED" });
    for (const secret of [SECRET_MESSAGE, "member@demo.test", "@"]) expect(JSON.stringify(failed)).not.toContain(secret);

    // Before the back-off has passed nothing is sent, and a later sweep does not claim the reminder again.
    const backOffHours = JOB_TIMING.retry.baseDelayMs / HOUR;
    await sweep(sentAt, hours + backOffHours / 2);
    expect(remindersOf(report)).toEqual([]);
    await sweep(sentAt, hours + backOffHours * 1.5);
    expect(recipients(report)).toEqual(["member@demo.test", "owner@demo.test"]);
    await sweep(sentAt, hours + backOffHours * 3);
    expect(recipients(report)).toEqual(["member@demo.test", "owner@demo.test"]);
    expect((await jobs()).map((job) => ({ state: job.state, attempts: job.attempts, lastError: job.lastError }))).toEqual([{ state: "done", attempts: 2, lastError: null }]);
    const audit = await server.db.select().from(userActivities).where(and(eq(userActivities.objectId, report.id), eq(userActivities.action, "NotifyStaleMessage")));
    expect(audit.length).toBe(1);
  });

  test("an enquiry's first message starts a wait too", async () => {
    await updateOrganisations(server, eq(organisations.id, demoId), { generalEnquiryEnabled: true });
    const sentAt = Date.now();
    const sent = await new ReporterClient(server, "demo.localhost").gql<{ guestSendEnquiry: { reportID: string } }>(
      `mutation ($org: ID!, $message: String!) { guestSendEnquiry(organisationID: $org, message: $message) { reportID } }`,
      { org: demoId, message: SECRET_MESSAGE },
    );
    expect(sent.errors).toBeUndefined();
    const [report] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, sent.data!.guestSendEnquiry.reportID));
    await sweep(sentAt, INTERVAL_HOURS + 0.01);
    expect(recipients(report!)).toEqual(["admin@demo.test", "owner@demo.test"]);
  });
});

describe("the upgrade", () => {
  const MIGRATIONS = join(import.meta.dir, "..", "..", "..", "db", "migrations");
  /** The migration's last statement: the backfill of conversations already waiting (its columns exist by now). */
  const backfill = () => {
    const folder = readdirSync(MIGRATIONS).find((name) => name.endsWith("_stale_message_reminders"))!;
    return readFileSync(join(MIGRATIONS, folder, "migration.sql"), "utf8").split("--> statement-breakpoint").at(-1)!;
  };

  test("conversations already waiting are found from their messages and first reminded one interval after the upgrade", async () => {
    const waiting = await reportWithMessage();
    await assign(waiting.report, [{ email: "member@demo.test" }]);
    const answered = await reportWithMessage();
    await assign(answered.report, [{ email: "admin@demo.test" }]);
    expect((await as.admin.gql(SEND, { id: answered.report.id, text: "We have read it" })).errors).toBeUndefined();
    // As an older release left them: messages ten hours old and no reminder state.
    const tenHoursAgo = new Date(Date.now() - 10 * HOUR);
    for (const { report } of [waiting, answered]) {
      const [conversation] = await server.db.select().from(reportConversations).where(eq(reportConversations.submissionId, report.id));
      await server.db.update(reportConversationMessages).set({ createdAt: tenHoursAgo }).where(and(eq(reportConversationMessages.conversationId, conversation!.id), eq(reportConversationMessages.from, "Guest")));
      await server.db.update(reportConversations).set({ awaitingReplySince: null, remindersSent: 0, lastRemindedAt: null }).where(eq(reportConversations.id, conversation!.id));
    }
    const upgradedAt = Date.now();
    await server.db.execute(sql.raw(backfill()));

    const stateOf = async (report: Report) => (await server.db.select().from(reportConversations).where(eq(reportConversations.submissionId, report.id)))[0]!;
    expect((await stateOf(waiting.report)).awaitingReplySince).toEqual(tenHoursAgo);
    expect((await stateOf(answered.report)).awaitingReplySince).toBeNull();
    await sweep(upgradedAt, INTERVAL_HOURS - 0.05);
    expect(remindersOf(waiting.report)).toEqual([]);
    await sweep(upgradedAt, INTERVAL_HOURS + 0.05);
    expect(recipients(waiting.report)).toEqual(["member@demo.test"]);
    expect(remindersOf(answered.report)).toEqual([]);
  });
});

describe.if(usingPostgres())("two instances on one database", () => {
  let second: TestServer;
  beforeAll(async () => {
    second = await startTestServer({ env: { SMTP_URL: smtp.url }, databaseUrl: server.databaseUrl! });
  });
  afterAll(() => second.stop());

  test("sweeping at once on both sends each reminder exactly once", async () => {
    const { report, sentAt } = await reportWithMessage();
    await assign(report, [{ email: "member@demo.test" }, { email: "owner@demo.test" }]);
    for (const hours of [INTERVAL_HOURS + 0.01, INTERVAL_HOURS + 0.02, 2 * INTERVAL_HOURS + 0.03]) {
      await Promise.all([sweep(sentAt, hours), sweep(sentAt, hours, second), sweep(sentAt, hours), sweep(sentAt, hours, second)]);
    }
    expect(recipients(report)).toEqual(["member@demo.test", "member@demo.test", "owner@demo.test", "owner@demo.test"]);
    expect((await server.db.select().from(userActivities).where(and(eq(userActivities.objectId, report.id), eq(userActivities.action, "NotifyStaleMessage")))).length).toBe(2);
  });

  test("a real restart on the same database does not send again", async () => {
    const { report, sentAt } = await reportWithMessage();
    await assign(report, [{ email: "member@demo.test" }]);
    await sweep(sentAt, INTERVAL_HOURS + 0.01, second);
    await second.stop();
    second = await startTestServer({ env: { SMTP_URL: smtp.url }, databaseUrl: server.databaseUrl! });
    await sweep(sentAt, INTERVAL_HOURS + 0.02, second);
    expect(remindersOf(report).length).toBe(1);
  });
});
