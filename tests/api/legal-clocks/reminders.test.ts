import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { organisations, reportSubmissionAssignees, reportSubmissions, userActivities, users } from "../../../db/schema/index.ts";
import { ACTION_NOTIFY_LEGAL_DEADLINE, legalReminderSubject, runLegalReminderJobs, sendDueLegalReminders, startLegalClockReminders, type LegalClock } from "../../../api/modules/legal-clocks/reminders.ts";
import { addCalendarMonths } from "../../../api/modules/legal-clocks/clocks.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import type { TestSmtpServer } from "../../helpers/smtp-server.ts";
import { bodyOf, startMailingDemo, subjectOf } from "../../helpers/notification-mail.ts";
import { updateOrganisations } from "../../helpers/organisations.ts";
import { usingPostgres } from "../../setup/template.ts";

/**
 * One reminder before each legal deadline. Time is the sweep's argument: a test sweeps "days later"
 * at once; each test has its own report, so mails are told apart by the report's id in the subject.
 */

let smtp: TestSmtpServer;
let server: TestServer;
let main: Awaited<ReturnType<typeof demoForm>>;
let demoId: string;

const DAY = 24 * 60 * 60 * 1000;
const SECRET = "The warehouse scales are set two kilos light";

beforeAll(async () => {
  ({ smtp, server, demoId, main } = await startMailingDemo());
});
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

type Report = typeof reportSubmissions.$inferSelect;

async function freshReport(): Promise<Report> {
  const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), main.form.id, main.widgets, { w_summary: [SECRET] });
  const [report] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
  return report!;
}

async function assign(report: Report, members: { email: string; isMuted?: boolean }[]) {
  const rows = await server.db.select().from(users).where(inArray(users.email, members.map((m) => m.email)));
  await server.db.insert(reportSubmissionAssignees).values(members.map((m, i) => ({ submissionId: report.id, userId: rows.find((u) => u.email === m.email)!.id, isOwner: i === 0, isMuted: m.isMuted ?? false })));
  await server.db.update(reportSubmissions).set({ status: "Assigned" }).where(eq(reportSubmissions.id, report.id));
}

const acknowledgeBy = (report: Report) => new Date(report.completedAt!.getTime() + 7 * DAY);
const feedbackBy = (report: Report, acknowledgedAt: Date) => addCalendarMonths(acknowledgedAt, 3);
const remindersOf = (report: Report, clock: LegalClock, deadline: Date) => smtp.messages.filter((mail) => subjectOf(mail) === legalReminderSubject(clock, report.reportId!, deadline));
const recipients = (report: Report, clock: LegalClock, deadline: Date) => remindersOf(report, clock, deadline).flatMap((mail) => mail.to).sort();
/** Sweeps at `at`, then runs the mail jobs due by then, as the server's worker would. */
async function sweep(at: Date, target: TestServer = server) {
  await sendDueLegalReminders(target.lantern.services, at);
  await runLegalReminderJobs(target.lantern.services, at);
}
const before = (deadline: Date, days: number) => new Date(deadline.getTime() - days * DAY);
const auditOf = (report: Report) => server.db.select().from(userActivities).where(and(eq(userActivities.objectId, report.id), eq(userActivities.action, ACTION_NOTIFY_LEGAL_DEADLINE)));

describe("the acknowledgement reminder", () => {
  test("none until two days before; then one mail each to the owners and admins of an unassigned report, a link only, and not again", async () => {
    const report = await freshReport();
    const deadline = acknowledgeBy(report);
    await sweep(before(deadline, 2.01));
    expect(remindersOf(report, "Acknowledge", deadline)).toEqual([]);

    await sweep(before(deadline, 1.99));
    expect(recipients(report, "Acknowledge", deadline)).toEqual(["admin@demo.test", "owner@demo.test"]);
    const mail = remindersOf(report, "Acknowledge", deadline)[0]!;
    expect(bodyOf(mail)).toBe(
      `${legalReminderSubject("Acknowledge", report.reportId!, deadline)}.\r\n\r\nSign in to the admin console to view it:\r\nhttp://app.localhost:3000/admin/manage/reports/overview/${main.form.id}/${report.id}\r\n`,
    );
    expect(mail.raw).not.toContain("warehouse");
    expect((await auditOf(report)).map((row) => ({ userId: row.userId, metadata: row.metadata }))).toEqual([{ userId: null, metadata: { clock: "Acknowledge" } }]);

    await sweep(before(deadline, 1));
    await sweep(before(deadline, 0.01));
    expect(remindersOf(report, "Acknowledge", deadline).length).toBe(2);
  });

  test("an acknowledged report is not reminded; nor is one whose deadline passed unseen", async () => {
    const acknowledged = await freshReport();
    await server.db.update(reportSubmissions).set({ acknowledgedAt: new Date() }).where(eq(reportSubmissions.id, acknowledged.id));
    await sweep(before(acknowledgeBy(acknowledged), 1));
    expect(remindersOf(acknowledged, "Acknowledge", acknowledgeBy(acknowledged))).toEqual([]);

    const missed = await freshReport();
    await sweep(new Date(acknowledgeBy(missed).getTime() + 1000));
    expect(remindersOf(missed, "Acknowledge", acknowledgeBy(missed))).toEqual([]);
  });

  test("an assigned report reminds its team only, its muted members skipped; a team all muted is not reminded at all", async () => {
    const report = await freshReport();
    await assign(report, [{ email: "member@demo.test" }, { email: "admin@demo.test", isMuted: true }]);
    await sweep(before(acknowledgeBy(report), 1));
    expect(recipients(report, "Acknowledge", acknowledgeBy(report))).toEqual(["member@demo.test"]);

    const muted = await freshReport();
    await assign(muted, [{ email: "member@demo.test", isMuted: true }]);
    await sweep(before(acknowledgeBy(muted), 1));
    expect(remindersOf(muted, "Acknowledge", acknowledgeBy(muted))).toEqual([]);
    expect(await auditOf(muted)).toEqual([]);
  });

  test("nothing while the organisation has legal deadlines off", async () => {
    const report = await freshReport();
    await updateOrganisations(server, eq(organisations.id, demoId), { legalClocksEnabled: false });
    try {
      await sweep(before(acknowledgeBy(report), 1));
      expect(remindersOf(report, "Acknowledge", acknowledgeBy(report))).toEqual([]);
    } finally {
      await updateOrganisations(server, eq(organisations.id, demoId), { legalClocksEnabled: true });
    }
  });
});

describe("the feedback reminder", () => {
  test("two weeks before three months from the acknowledgement, to the team, once; none after feedback is recorded", async () => {
    const report = await freshReport();
    await assign(report, [{ email: "member@demo.test" }]);
    const acknowledgedAt = new Date(report.completedAt!.getTime() + DAY);
    await server.db.update(reportSubmissions).set({ acknowledgedAt }).where(eq(reportSubmissions.id, report.id));
    const deadline = feedbackBy(report, acknowledgedAt);
    await sweep(before(deadline, 14.01));
    expect(remindersOf(report, "Feedback", deadline)).toEqual([]);
    await sweep(before(deadline, 13.99));
    await sweep(before(deadline, 3));
    expect(recipients(report, "Feedback", deadline)).toEqual(["member@demo.test"]);

    const answered = await freshReport();
    await assign(answered, [{ email: "member@demo.test" }]);
    await server.db.update(reportSubmissions).set({ acknowledgedAt, feedbackAt: acknowledgedAt }).where(eq(reportSubmissions.id, answered.id));
    await sweep(before(feedbackBy(answered, acknowledgedAt), 3));
    expect(remindersOf(answered, "Feedback", feedbackBy(answered, acknowledgedAt))).toEqual([]);
  });
});

describe("sending once", () => {
  test("sweeps racing on one instance send each reminder once", async () => {
    const report = await freshReport();
    await assign(report, [{ email: "member@demo.test" }]);
    const at = before(acknowledgeBy(report), 1);
    await Promise.all([sweep(at), sweep(at), sweep(at), sweep(at)]);
    expect(recipients(report, "Acknowledge", acknowledgeBy(report))).toEqual(["member@demo.test"]);
    expect((await auditOf(report)).length).toBe(1);
  });

  test("a restarted sweeper does not send it again: the state is the database's", async () => {
    const report = await freshReport();
    await assign(report, [{ email: "member@demo.test" }]);
    // A fresh sweeper holds nothing in memory; its first sweep runs as it starts.
    const restart = async (at: Date) => {
      const stop = startLegalClockReminders(server.lantern.services, { sweepEveryMs: 3_600_000, now: () => at.getTime() });
      await stop();
    };
    await restart(before(acknowledgeBy(report), 1.5));
    await restart(before(acknowledgeBy(report), 1));
    expect(remindersOf(report, "Acknowledge", acknowledgeBy(report)).length).toBe(1);
  });
});

describe.if(usingPostgres())("two instances on one database", () => {
  let second: TestServer;
  beforeAll(async () => {
    second = await startTestServer({ env: { SMTP_URL: smtp.url }, databaseUrl: server.databaseUrl! });
  });
  afterAll(() => second.stop());

  test("sweeping at once on both sends each reminder exactly once", async () => {
    const report = await freshReport();
    await assign(report, [{ email: "member@demo.test" }, { email: "owner@demo.test" }]);
    const at = before(acknowledgeBy(report), 1);
    await Promise.all([sweep(at), sweep(at, second), sweep(at), sweep(at, second)]);
    expect(recipients(report, "Acknowledge", acknowledgeBy(report))).toEqual(["member@demo.test", "owner@demo.test"]);
    expect((await auditOf(report)).length).toBe(1);
  });

  test("a real restart on the same database does not send again", async () => {
    const report = await freshReport();
    await assign(report, [{ email: "member@demo.test" }]);
    await sweep(before(acknowledgeBy(report), 1.5), second);
    await second.stop();
    second = await startTestServer({ env: { SMTP_URL: smtp.url }, databaseUrl: server.databaseUrl! });
    await sweep(before(acknowledgeBy(report), 1), second);
    expect(remindersOf(report, "Acknowledge", acknowledgeBy(report)).length).toBe(1);
  });
});
