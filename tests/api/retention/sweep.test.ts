import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import {
  blobs,
  reportConversations,
  reportSubmissionAnswers,
  reportSubmissionAttachments,
  reportSubmissionNotes,
  reporterSessions,
  userActivities,
} from "../../../db/schema/index.ts";
import { ACTION_RETENTION_DELETE, ACTION_RETENTION_WARNING, retentionWarningSubject, runRetentionJobs, sweepRetention } from "../../../api/modules/retention/sweep.ts";
import { bodyOf, startMailingDemo, subjectOf } from "../../helpers/notification-mail.ts";
import { closeAsOwner, deletionDate, HOLD, OPEN, reportWithFile, SET_RETENTION, shift, stored, type Report } from "../../helpers/retention.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { demoStaff, type DemoStaff } from "../../helpers/session.ts";
import type { TestSmtpServer } from "../../helpers/smtp-server.ts";
import { usingPostgres } from "../../setup/template.ts";

/**
 * Retention's sweep (decision 052). Time is the sweep's argument: reports are closed now and swept
 * months later at once. Each test has its own reports; mails are told apart by report ID.
 */

let smtp: TestSmtpServer;
let server: TestServer;
let main: Awaited<ReturnType<typeof startMailingDemo>>["main"];
let demoId: string;
let as: DemoStaff;
const MONTHS = 6;
const SECRET = "The night shift pours solvent into the creek";

beforeAll(async () => {
  ({ smtp, server, demoId, main } = await startMailingDemo());
  as = await demoStaff(server);
  await setRetention(MONTHS);
}, 60_000);
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

async function setRetention(months: number | null) {
  const result = await as.owner.gql(SET_RETENTION, { id: demoId, months });
  if (result.errors) throw new Error(JSON.stringify(result.errors));
}
const closedReport = async () => closeAsOwner(server, as.owner, await reportWithFile(server, main, SECRET));
/** Sweeps at `at`, then runs the warnings' mail jobs due by then, as the server's worker would. */
async function sweep(at: Date, target: TestServer = server) {
  const swept = await sweepRetention(target.lantern.services, at);
  await runRetentionJobs(target.lantern.services, at);
  return swept;
}
const warningsOf = (report: Report) => smtp.messages.filter((mail) => subjectOf(mail)?.startsWith(`Report ${report.reportId} will be deleted`));
const auditOf = (report: Report, action: string) => server.db.select().from(userActivities).where(and(eq(userActivities.objectId, report.id), eq(userActivities.action, action)));
const contentRows = async (report: Report) => {
  const counts = [];
  for (const table of [reportSubmissionAnswers, reportSubmissionAttachments, reportSubmissionNotes, reportConversations, reporterSessions]) {
    counts.push((await server.db.select().from(table).where(eq(table.submissionId, report.id))).length);
  }
  return counts.reduce((a, b) => a + b, 0);
};
const blobKeysOf = async (report: Report) =>
  (await server.db.select({ key: blobs.storageKey }).from(reportSubmissionAttachments).innerJoin(blobs, eq(blobs.id, reportSubmissionAttachments.blobId)).where(eq(reportSubmissionAttachments.submissionId, report.id))).map((row) => row.key);

describe("a closed report past retention", () => {
  test("the owners are warned 14 days ahead, once, by link only; then the report's content and files go, the row and an audit line without content stay", async () => {
    const report = await closedReport();
    const date = deletionDate(report, MONTHS);
    const keys = await blobKeysOf(report);
    expect(keys.length).toBe(1);

    await sweep(shift(date, -14.01));
    expect(warningsOf(report)).toEqual([]);
    await sweep(shift(date, -13.99));
    const warnings = warningsOf(report);
    expect(warnings.flatMap((mail) => mail.to)).toEqual(["owner@demo.test"]);
    // Deletion comes no sooner than 14 days after the warning (decision 052): sent 13.99 days ahead,
    // that is a quarter of an hour past the due date, which is the next day when the date is near midnight.
    const deletesOn = new Date(Math.max(date.getTime(), shift(date, -13.99).getTime() + 14 * 24 * 60 * 60 * 1000));
    expect(subjectOf(warnings[0]!)).toBe(retentionWarningSubject(report.reportId!, deletesOn));
    expect(bodyOf(warnings[0]!)).toContain(`/admin/manage/reports/overview/${main.form.id}/${report.id}`);
    expect(warnings[0]!.raw).not.toContain("solvent");
    // Warned, not yet due: nothing is deleted before the date.
    await sweep(shift(date, -1));
    expect((await stored(server, report.id)).deletedAt).toBeNull();
    expect(await contentRows(report)).toBeGreaterThan(0);

    await sweep(shift(date, 0.01));
    const row = await stored(server, report.id);
    expect(row).toMatchObject({ reportId: report.reportId, status: "Completed", internalReference: "", passwordHash: null, deletedByUserId: null });
    expect(row.deletedAt).not.toBeNull();
    expect(await contentRows(report)).toBe(0);
    for (const key of keys) expect(await server.lantern.services.blobs.exists(key)).toBe(false);
    const [entry, ...more] = await auditOf(report, ACTION_RETENTION_DELETE);
    expect(more).toEqual([]);
    expect({ userId: entry!.userId, objectCode: entry!.objectCode, metadata: entry!.metadata }).toEqual({ userId: null, objectCode: report.reportId, metadata: { files: 1, retentionMonths: MONTHS } });
    expect(JSON.stringify(entry)).not.toContain("solvent");
    // Staff no longer find it; a later sweep does nothing more.
    expect((await as.owner.gql(`query ($id: ID!) { reportSubmissionGet(id: $id) { id } }`, { id: report.id })).errors?.[0]?.message).toBe("Report Submission is not found");
    await sweep(shift(date, 30));
    expect(await auditOf(report, ACTION_RETENTION_DELETE)).toHaveLength(1);
    expect(warningsOf(report)).toHaveLength(1);
  });
});

describe("what is not deleted", () => {
  test("a report on legal hold is neither warned nor deleted; released, it is warned and deleted no sooner than 14 days later", async () => {
    const report = await closedReport();
    const date = deletionDate(report, MONTHS);
    expect((await as.owner.gql(HOLD, { id: report.id, hold: true })).errors).toBeUndefined();
    await sweep(shift(date, 60));
    expect(warningsOf(report)).toEqual([]);
    expect((await stored(server, report.id)).deletedAt).toBeNull();

    expect((await as.owner.gql(HOLD, { id: report.id, hold: false })).errors).toBeUndefined();
    const released = shift(date, 61);
    await sweep(released);
    expect(warningsOf(report)).toHaveLength(1);
    expect(subjectOf(warningsOf(report)[0]!)).toBe(retentionWarningSubject(report.reportId!, shift(released, 14)));
    await sweep(shift(released, 13.9));
    expect((await stored(server, report.id)).deletedAt).toBeNull();
    await sweep(shift(released, 14.01));
    expect((await stored(server, report.id)).deletedAt).not.toBeNull();
  });

  test("an open report and a re-opened one are not touched", async () => {
    const open = await reportWithFile(server, main, SECRET);
    const reopened = await closedReport();
    expect((await as.owner.gql(OPEN, { id: reopened.id })).errors).toBeUndefined();
    expect((await stored(server, reopened.id)).closedAt).toBeNull();
    const far = shift(deletionDate(reopened, MONTHS), 60);
    await sweep(far);
    await sweep(shift(far, 15));
    for (const report of [open, reopened]) {
      expect(warningsOf(report)).toEqual([]);
      expect((await stored(server, report.id)).deletedAt).toBeNull();
      expect(await contentRows(report)).toBeGreaterThan(0);
    }
  });

  test("nothing while retention is off", async () => {
    const report = await closedReport();
    await setRetention(null);
    try {
      const far = shift(deletionDate(report, MONTHS), 60);
      await sweep(far);
      await sweep(shift(far, 15));
      expect(warningsOf(report)).toEqual([]);
      expect((await stored(server, report.id)).deletedAt).toBeNull();
    } finally {
      await setRetention(MONTHS);
    }
  });

  test("retention shortened so that a report is due at once: warned first, deleted only 14 days after the warning", async () => {
    const report = await closedReport();
    await setRetention(1);
    try {
      const now = shift(deletionDate(report, 1), 20);
      await sweep(now);
      expect(warningsOf(report)).toHaveLength(1);
      expect(subjectOf(warningsOf(report)[0]!)).toBe(retentionWarningSubject(report.reportId!, shift(now, 14)));
      expect((await stored(server, report.id)).deletedAt).toBeNull();
      await sweep(shift(now, 13.9));
      expect((await stored(server, report.id)).deletedAt).toBeNull();
      await sweep(shift(now, 14.01));
      expect((await stored(server, report.id)).deletedAt).not.toBeNull();
    } finally {
      await setRetention(MONTHS);
    }
  });
});

describe("once across sweeps", () => {
  test("sweeps racing send one warning and delete once", async () => {
    const report = await closedReport();
    const date = deletionDate(report, MONTHS);
    await Promise.all([sweep(shift(date, -1)), sweep(shift(date, -1)), sweep(shift(date, -1))]);
    expect(warningsOf(report)).toHaveLength(1);
    expect(await auditOf(report, ACTION_RETENTION_WARNING)).toHaveLength(1);
    // Warned a day before the date: deleted a full 14 days after the warning.
    await Promise.all([sweep(shift(date, 13.01)), sweep(shift(date, 13.01)), sweep(shift(date, 13.01))]);
    expect(await auditOf(report, ACTION_RETENTION_DELETE)).toHaveLength(1);
  });
});

describe.if(usingPostgres())("two instances on one database", () => {
  let second: TestServer;
  beforeAll(async () => {
    second = await startTestServer({ env: { SMTP_URL: smtp.url }, databaseUrl: server.databaseUrl! });
  });
  afterAll(() => second.stop());

  test("sweeping at once on both warns once and deletes once", async () => {
    const report = await closedReport();
    const date = deletionDate(report, MONTHS);
    await Promise.all([sweep(shift(date, -1)), sweep(shift(date, -1), second), sweep(shift(date, -1), second)]);
    expect(warningsOf(report)).toHaveLength(1);
    await Promise.all([sweep(shift(date, 13.01)), sweep(shift(date, 13.01), second), sweep(shift(date, 13.01), second)]);
    expect(await auditOf(report, ACTION_RETENTION_DELETE)).toHaveLength(1);
    expect((await stored(server, report.id)).deletedAt).not.toBeNull();
  });
});
