import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { backgroundJobs, organisationEmailSubscribers, organisations, reportNotices, reportSubmissionAssignees, reportSubmissions, userActivities, users } from "../../../db/schema/index.ts";
import { claimNotification } from "../../../api/modules/notifications/claim.ts";
import { NEW_REPORT_JOB, NEW_REPORT_SUBJECT, newMessageSubject, startNotifier } from "../../../api/modules/notifications/notifier.ts";
import { newReportTopic } from "../../../api/modules/reporting/complete.ts";
import { NOTICE_TIMING } from "../../../api/modules/notifications/notice-queue.ts";
import { claimReportNotices } from "../../../api/modules/notifications/report-notices.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { demoStaff, type DemoStaff } from "../../helpers/session.ts";
import type { ReceivedMail, TestSmtpServer } from "../../helpers/smtp-server.ts";
import { bodyOf, startMailingDemo, subjectOf } from "../../helpers/notification-mail.ts";
import { usingPostgres } from "../../setup/template.ts";
import { updateOrganisations } from "../../helpers/organisations.ts";

let smtp: TestSmtpServer;
let server: TestServer;
let as: DemoStaff;
let main: Awaited<ReturnType<typeof demoForm>>;
let demoId: string;

const SUBSCRIBER = "subscriber@demo.test";
const SECRET_ANSWER = "The finance lead moved money to account 4471";
const SECRET_MESSAGE = "I am the person in the second row";
const SEND = `mutation ($id: ID, $text: String!) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $text }) { id } }`;

beforeAll(async () => {
  ({ smtp, server, demoId, main } = await startMailingDemo());
  // The seed has no subscriber; the console's Subscribers page would add one like this.
  await server.db.insert(organisationEmailSubscribers).values({ organisationId: demoId, firstName: "Sam", lastName: "Subscriber", email: SUBSCRIBER });
  as = await demoStaff(server);
});
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

/** A report through the reporter's journey, and that reporter signed in to follow it up. */
async function newReport() {
  const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), main.form.id, main.widgets, { w_summary: [SECRET_ANSWER] });
  const reporter = new ReporterClient(server, "demo.localhost");
  expect((await reporter.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword })).status).toBe(200);
  const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
  return { reporter, report: row! };
}

const mailsTo = (address: string) => smtp.messages.filter((mail) => mail.to.includes(address));
/** Waits for `count` mails to `address`, then a little longer so a duplicate would have arrived. */
async function expectMails(address: string, count: number): Promise<ReceivedMail[]> {
  const deadline = Date.now() + 5000;
  while (mailsTo(address).length < count && Date.now() < deadline) await Bun.sleep(20);
  await Bun.sleep(300);
  expect(mailsTo(address).length).toBe(count);
  return mailsTo(address);
}
const claims = (submissionId: string, action: string) =>
  server.db.select().from(userActivities).where(and(eq(userActivities.objectId, submissionId), eq(userActivities.action, action)));

describe("new report notifications", () => {
  test("completing a report mails the organisation's subscriber a link, never the answers", async () => {
    const before = mailsTo(SUBSCRIBER).length;
    const { report } = await newReport();
    const [mail] = (await expectMails(SUBSCRIBER, before + 1)).slice(-1);
    expect(subjectOf(mail!)).toBe(NEW_REPORT_SUBJECT);
    expect(bodyOf(mail!)).toBe(`A new report was received.\r\n\r\nSign in to the admin console to view it:\r\nhttp://app.localhost:3000/admin/manage/reports/overview/${main.form.id}/${report.id}\r\n`);
    expect(mail!.raw).not.toContain("4471");
    expect(mail!.to).toEqual([SUBSCRIBER]);
    const [claim] = await claims(report.id, "NotifyNewReport");
    expect(claim).toMatchObject({ userId: null, organisationId: demoId, metadata: { event_id: `report.new:${report.id}` } });
    expect(JSON.stringify(claim!.metadata)).not.toContain("@");
  });

  test("a report's mail job is queued by its own completion, and it leaves no notice to claim", async () => {
    const before = mailsTo(SUBSCRIBER).length;
    const { report } = await newReport();
    await expectMails(SUBSCRIBER, before + 1);
    const jobs = await server.db.select().from(backgroundJobs).where(eq(backgroundJobs.subjectId, report.id));
    expect(jobs).toMatchObject([{ kind: NEW_REPORT_JOB, state: "done", attempts: 1 }]);
    expect(await server.db.select().from(reportNotices).where(eq(reportNotices.submissionId, report.id))).toEqual([]);
  });

  test("an earlier release's report (a notice and an event without mailQueued) is still announced once", async () => {
    const before = mailsTo(SUBSCRIBER).length;
    const { report } = await newReport();
    await expectMails(SUBSCRIBER, before + 1);
    await server.db.delete(userActivities).where(and(eq(userActivities.objectId, report.id), eq(userActivities.action, "NotifyNewReport")));
    // What an instance of the earlier release writes and sends for the report it made.
    await server.db.insert(reportNotices).values({ submissionId: report.id });
    await server.lantern.services.pubsub.publish(newReportTopic(demoId), { submissionId: report.id });
    await expectMails(SUBSCRIBER, before + 2);
    expect(await server.db.select().from(reportNotices).where(eq(reportNotices.submissionId, report.id))).toEqual([]);
    expect((await claims(report.id, "NotifyNewReport")).length).toBe(1);
  });

  test("a report whose event never came is still announced, once, by the sweep", async () => {
    const before = mailsTo(SUBSCRIBER).length;
    const { report } = await newReport();
    await expectMails(SUBSCRIBER, before + 1);
    // As if the instance had stopped between the report's commit and its event: the notice is
    // still pending and nobody has claimed the event.
    await server.db.delete(userActivities).where(and(eq(userActivities.objectId, report.id), eq(userActivities.action, "NotifyNewReport")));
    await server.db.insert(reportNotices).values({ submissionId: report.id, createdAt: new Date(Date.now() - 60_000) });
    const stop = startNotifier(server.lantern.services, { ...NOTICE_TIMING, sweepEveryMs: 60_000 });
    try {
      await expectMails(SUBSCRIBER, before + 2);
      expect(await server.db.select().from(reportNotices).where(eq(reportNotices.submissionId, report.id))).toEqual([]);
      expect((await claims(report.id, "NotifyNewReport")).length).toBe(1);
    } finally {
      await stop();
    }
  });

  test("notices claimed together each go out once, and a claimed notice cannot be claimed again", async () => {
    const before = mailsTo(SUBSCRIBER).length;
    const first = await newReport();
    const second = await newReport();
    await expectMails(SUBSCRIBER, before + 2);
    await server.db.insert(reportNotices).values([{ submissionId: first.report.id }, { submissionId: second.report.id }]);
    const claimed = await claimReportNotices(server.db, [first.report.id, second.report.id, first.report.id]);
    expect(claimed.map((notice) => notice.report.id).sort()).toEqual([first.report.id, second.report.id].sort());
    expect(claimed.find((notice) => notice.report.id === first.report.id)!.subscribers).toEqual([SUBSCRIBER]);
    expect(await claimReportNotices(server.db, [first.report.id, second.report.id])).toEqual([]);
  });

  test("an enquiry is a new report too", async () => {
    const before = mailsTo(SUBSCRIBER).length;
    await updateOrganisations(server, eq(organisations.id, demoId), { generalEnquiryEnabled: true });
    const visitor = new ReporterClient(server, "demo.localhost");
    const sent = await visitor.gql(`mutation ($org: ID!, $message: String!) { guestSendEnquiry(organisationID: $org, message: $message) { reportID } }`, { org: demoId, message: SECRET_MESSAGE });
    expect(sent.errors).toBeUndefined();
    const [mail] = (await expectMails(SUBSCRIBER, before + 1)).slice(-1);
    expect(bodyOf(mail!)).not.toContain(SECRET_MESSAGE);
  });
});

describe("new message notifications", () => {
  let reporter: ReporterClient;
  let report: typeof reportSubmissions.$inferSelect;

  beforeAll(async () => {
    ({ reporter, report } = await newReport());
    const team = await server.db.select().from(users).where(inArray(users.email, ["owner@demo.test", "admin@demo.test"]));
    const idOf = (email: string) => team.find((u) => u.email === email)!.id;
    await server.db.insert(reportSubmissionAssignees).values([
      { submissionId: report.id, userId: idOf("admin@demo.test"), isOwner: true },
      { submissionId: report.id, userId: idOf("owner@demo.test"), isMuted: true },
    ]);
  });

  test("a reporter's message mails the assigned, unmuted user and not the muted one, without its text", async () => {
    const [adminBefore, ownerBefore] = [mailsTo("admin@demo.test").length, mailsTo("owner@demo.test").length];
    expect((await reporter.gql(SEND, { text: SECRET_MESSAGE })).errors).toBeUndefined();
    const [mail] = (await expectMails("admin@demo.test", adminBefore + 1)).slice(-1);
    expect(subjectOf(mail!)).toBe(newMessageSubject(report.reportId!));
    expect(bodyOf(mail!)).toContain(`\r\nhttp://app.localhost:3000/admin/manage/reports/overview/${main.form.id}/${report.id}\r\n`);
    expect(bodyOf(mail!)).not.toContain(SECRET_MESSAGE);
    expect(mailsTo("owner@demo.test").length).toBe(ownerBefore);
    expect((await claims(report.id, "NotifyNewMessage")).length).toBe(1);
  });

  test("staff messages and read receipts mail nobody", async () => {
    const count = smtp.messages.length;
    const reply = await as.admin.gql<{ reportConversationSendMessage: { id: string } }>(SEND, { id: report.id, text: "We are looking into it" });
    expect(reply.errors).toBeUndefined();
    const read = await reporter.gql(`mutation ($ids: [ID!]!) { reportConversationReadMessages(messageIDs: $ids) }`, { ids: [reply.data!.reportConversationSendMessage.id] });
    expect(read.errors).toBeUndefined();
    await Bun.sleep(400);
    expect(smtp.messages.length).toBe(count);
  });
});

describe("claiming an event", () => {
  test("only the first claim of an event wins, even when claims race", async () => {
    const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.organisationId, demoId)).limit(1);
    const claim = { kind: "NotifyNewMessage" as const, eventId: `test:${crypto.randomUUID()}`, organisationId: demoId, submissionId: row!.id, reportId: row!.reportId };
    const results = await Promise.all([1, 2, 3, 4].map(() => claimNotification(server.db, claim)));
    expect(results.filter(Boolean).length).toBe(1);
    expect(await claimNotification(server.db, claim)).toBe(false);
  });
});

describe.if(usingPostgres())("two instances on one database", () => {
  let second: TestServer;
  beforeAll(async () => {
    second = await startTestServer({ env: { SMTP_URL: smtp.url }, databaseUrl: server.databaseUrl! });
  });
  afterAll(() => second.stop());

  test("both hear every event, and exactly one mail goes out per event", async () => {
    const before = mailsTo(SUBSCRIBER).length;
    const { reporter, report } = await newReport();
    await expectMails(SUBSCRIBER, before + 1);
    const [admin] = await server.db.select().from(users).where(eq(users.email, "admin@demo.test"));
    await server.db.insert(reportSubmissionAssignees).values({ submissionId: report.id, userId: admin!.id, isOwner: true });
    const adminBefore = mailsTo("admin@demo.test").length;
    for (let i = 0; i < 3; i += 1) expect((await reporter.gql(SEND, { text: `Message ${i}` })).errors).toBeUndefined();
    await expectMails("admin@demo.test", adminBefore + 3);
    expect((await claims(report.id, "NotifyNewMessage")).length).toBe(3);
    expect((await claims(report.id, "NotifyNewReport")).length).toBe(1);
  });
});
