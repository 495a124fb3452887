import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { blobs, reportConversations, reportSubmissionAttachments, reportSubmissions, userActivities, users } from "../../../db/schema/index.ts";
import { resultRows } from "../../../db/results.ts";
import { startDemoWithStaff } from "../../helpers/demo.ts";
import { upload } from "../../fixtures/attachments.ts";
import { COMPLETE, demoForm, pagesOfAnswers, ReporterClient, UPDATE } from "../../helpers/reporter.ts";
import { joinTeam, type DemoStaff } from "../../helpers/session.ts";
import type { TestServer } from "../../helpers/server.ts";

/**
 * What a reporter does keeps only its day, in storage as in the console (docs/decisions/064-reporter-activity-grain.md):
 * the database holds no time of day for it, page saves are not recorded, and the log still reads in order.
 */

const MIGRATIONS = join(import.meta.dir, "..", "..", "..", "db", "migrations");
const migrationSql = (name: string) => {
  const folder = readdirSync(MIGRATIONS).find((folder) => folder.endsWith(`_${name}`))!;
  return readFileSync(join(MIGRATIONS, folder, "migration.sql"), "utf8").split("--> statement-breakpoint");
};
const runMigration = async (name: string) => {
  for (const statement of migrationSql(name)) await server.db.execute(sql.raw(statement));
};

const REPORTER_ACTIONS = ["Start", "AddAttachment", "AddAttachment", "Complete", "ReporterLogin", "SendMessage"];
const LOG = `query ($id: ID!) { userActivities(objectType: ReportSubmission, objectID: $id, limit: 100) { list { action createdAt dayOnly user { firstName } } } }`;
type LoggedEntry = { action: string; createdAt: string; dayOnly: boolean; user: { firstName: string } | null };

let server: TestServer;
let as: DemoStaff;
let report: typeof reportSubmissions.$inferSelect;
let ownerId: string;
let returning: ReporterClient;

beforeAll(async () => {
  ({ server, as } = await startDemoWithStaff());
  const main = await demoForm(server, "demo", "Workplace Misconduct Report");
  // Start, an upload, every page saved, the completion; then a sign-in and a message; then staff.
  const reporter = new ReporterClient(server, "demo.localhost");
  await reporter.post("/api/auth/report_start", { reportFormID: main.form.id });
  expect((await upload(reporter, "evidence.txt", "Day grain")).status).toBe(200);
  expect((await upload(reporter, "second.txt", "Day grain, again")).status).toBe(200);
  for (const [page, answers] of pagesOfAnswers(main.widgets).entries()) await reporter.gql(UPDATE, { page, answers });
  const done = await reporter.gql<{ userReportSubmissionComplete: { reportID: string; generatedPassword: string } }>(COMPLETE);
  const { reportID, generatedPassword } = done.data!.userReportSubmissionComplete;
  returning = new ReporterClient(server, "demo.localhost");
  expect((await returning.post("/api/auth/report_login", { reportID, password: generatedPassword })).status).toBe(200);
  const sent = await returning.gql(`mutation { reportConversationSendMessage(input: { type: Text, message: "Any news?" }) { id } }`);
  expect(sent.errors).toBeUndefined();
  report = (await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, reportID)))[0]!;
  await joinTeam(as.owner, report.id);
  ownerId = (await server.db.select({ id: users.id }).from(users).where(eq(users.email, "owner@demo.test")))[0]!.id;
}, 60_000);
afterAll(() => server.stop());

/** Each stored entry about the report, with how far into its UTC day it was stored, in microseconds. */
async function storedEntries(id: string) {
  const rows = resultRows<{ action: string; user_id: string | null; offset_us: string }>(
    await server.db.execute(sql`select action, user_id, (extract(epoch from created_at - date_trunc('day', created_at, 'UTC')) * 1000000)::bigint::text as offset_us
      from user_activities where object_id = ${id} order by created_at, id`),
  );
  return rows.map((row) => ({ action: row.action, byStaff: row.user_id !== null, offsetMicroseconds: Number(row.offset_us) }));
}

describe("storage", () => {
  test("a reporter's entries hold their day and their order, no time of day; page saves write none", async () => {
    const entries = await storedEntries(report.id);
    const reporters = entries.filter((entry) => !entry.byStaff);
    expect(reporters.map((entry) => entry.action).filter((action) => REPORTER_ACTIONS.includes(action))).toEqual(REPORTER_ACTIONS);
    expect(entries.map((entry) => entry.action)).not.toContain("UpdateDraft");
    // Written one after another that day: 0, 1, 2… microseconds past midnight UTC.
    expect(reporters.map((entry) => entry.offsetMicroseconds)).toEqual(reporters.map((_, index) => index));
    expect(entries.some((entry) => entry.byStaff)).toBe(true);
  });

  test("the report's createdAt, the moment its draft began, is stored as its day", async () => {
    const [row] = await server.db.select({ createdAt: reportSubmissions.createdAt }).from(reportSubmissions).where(eq(reportSubmissions.id, report.id));
    expect(row!.createdAt.toISOString()).toEndWith("T00:00:00.000Z");
  });
});

/** How far into its UTC day each value of a timestamp column was stored, in microseconds. */
async function offsets(table: string, column: string, where: string, id: string) {
  const rows = resultRows<{ us: string }>(
    await server.db.execute(sql`select (extract(epoch from ${sql.identifier(column)} - date_trunc('day', ${sql.identifier(column)}, 'UTC')) * 1000000)::bigint::text as us
      from ${sql.identifier(table)} where ${sql.identifier(where)} = ${id}::uuid order by ${sql.identifier(column)}`),
  );
  return rows.map((row) => Number(row.us));
}

describe("storage of what the reporter wrote and sent", () => {
  test("answers keep the day they were written; uploads their day and their order, on their rows and their blobs", async () => {
    const answers = [...(await offsets("report_submission_answers", "created_at", "submission_id", report.id)), ...(await offsets("report_submission_answers", "updated_at", "submission_id", report.id))];
    expect(answers.length).toBeGreaterThan(0);
    expect(new Set(answers)).toEqual(new Set([0]));
    const files = await server.db.select().from(reportSubmissionAttachments).where(eq(reportSubmissionAttachments.submissionId, report.id)).orderBy(asc(reportSubmissionAttachments.createdAt), asc(reportSubmissionAttachments.id));
    expect(files.map((file) => file.fileSizeBytes)).toEqual([Buffer.byteLength("Day grain"), Buffer.byteLength("Day grain, again")]);
    expect(await offsets("report_submission_attachments", "created_at", "submission_id", report.id)).toEqual([0, 1]);
    const blobRows = await server.db.select({ createdAt: blobs.createdAt }).from(blobs).where(inArray(blobs.id, files.map((file) => file.blobId)));
    for (const row of blobRows) expect(row.createdAt.toISOString()).toEndWith("T00:00:00.000Z");
  });
});

describe("the log staff read", () => {
  test("reporter and system entries are day-only, at the start of their UTC day, newest first in the order written; staff entries keep their time", async () => {
    const log = await as.owner.gql<{ userActivities: { list: LoggedEntry[] } }>(LOG, { id: report.id });
    const list = log.data!.userActivities.list;
    const withoutPerson = list.filter((entry) => entry.user === null);
    for (const entry of withoutPerson) {
      expect(entry.dayOnly).toBe(true);
      expect(entry.createdAt).toEndWith("T00:00:00.000Z");
    }
    expect(withoutPerson.map((entry) => entry.action).filter((action) => REPORTER_ACTIONS.includes(action))).toEqual([...REPORTER_ACTIONS].reverse());
    const staff = list.filter((entry) => entry.user !== null);
    expect(staff.length).toBeGreaterThan(0);
    for (const entry of staff) expect(entry.dayOnly).toBe(false);
    // Within the day, the day-only entries come after the staff's timed ones: no time places them between.
    expect(list.findIndex((entry) => entry.dayOnly)).toBeGreaterThan(list.findLastIndex((entry) => !entry.dayOnly));
  });

  test("the report's createdAt reads as its day", async () => {
    const result = await as.owner.gql<{ reportSubmissionGet: { createdAt: string } }>(`query ($id: ID!) { reportSubmissionGet(id: $id) { createdAt } }`, { id: report.id });
    expect(result.data!.reportSubmissionGet.createdAt).toEndWith("T00:00:00.000Z");
  });
});

describe("presence", () => {
  const STATUS = `mutation ($status: PresenceStatus!) { reportConversationUpdateUserStatus(status: $status) }`;
  const LIST = `{ reportConversations(limit: 100) { list { submission { id } otherUserStatus lastSeenAt lastTypedAt } } }`;
  type Row = { submission: { id: string }; otherUserStatus: string; lastSeenAt: string | null; lastTypedAt: string | null };

  test("a reporter who has left is last seen by the day, in storage and to staff; while there staff see them live", async () => {
    await returning.gql(STATUS, { status: "Typing" });
    const rowFor = async () => (await as.owner.gql<{ reportConversations: { list: Row[] } }>(LIST)).data!.reportConversations.list.find((row) => row.submission.id === report.id)!;
    expect((await rowFor()).otherUserStatus).toBe("Typing");

    expect((await returning.gql(STATUS, { status: "Offline" })).errors).toBeUndefined();
    const [stored] = await server.db.select().from(reportConversations).where(eq(reportConversations.submissionId, report.id));
    expect(stored!.guestLastSeenAt!.toISOString()).toEndWith("T00:00:00.000Z");
    expect(stored!.guestLastTypedAt!.toISOString()).toEndWith("T00:00:00.000Z");
    const row = await rowFor();
    expect(row.otherUserStatus).toBe("Offline");
    expect(row.lastSeenAt).toEndWith("T00:00:00.000Z");
    expect(row.lastTypedAt).toEndWith("T00:00:00.000Z");
  });
});

describe("the migration", () => {
  test("gives entries stored with their time, without a person, their day and their order; staff's and a deleted person's keep their time", async () => {
    const target = (await server.db.insert(reportSubmissions).values({ organisationId: report.organisationId, formId: report.formId, buildId: report.buildId, status: "Draft", createdAt: new Date("2026-03-04T15:16:17.189Z") }).returning())[0]!;
    const at = (iso: string) => new Date(iso);
    const base = { organisationId: report.organisationId, objectType: "ReportSubmission" as const, objectId: target.id };
    await server.db.insert(userActivities).values([
      { ...base, action: "Start", createdAt: at("2026-03-04T15:16:17.189Z") },
      { ...base, action: "UpdateDraft", createdAt: at("2026-03-04T15:20:01.002Z") },
      { ...base, action: "Complete", createdAt: at("2026-03-04T15:31:45.777Z") },
      { ...base, action: "ReporterLogin", createdAt: at("2026-03-06T08:02:03.004Z") },
      { ...base, action: "Join", userId: ownerId, createdAt: at("2026-03-04T16:00:00.123Z") },
      { ...base, action: "SetPriority", metadata: { deleted_user: true }, createdAt: at("2026-03-05T09:10:11.012Z") },
    ]);
    await runMigration("reporter_activity_day_grain");

    const stored = await server.db.select({ action: userActivities.action, createdAt: userActivities.createdAt }).from(userActivities).where(eq(userActivities.objectId, target.id));
    const microseconds = resultRows<{ action: string; us: string }>(
      await server.db.execute(sql`select action, (extract(epoch from created_at - date_trunc('day', created_at, 'UTC')) * 1000000)::bigint::text as us from user_activities where object_id = ${target.id}`),
    );
    const timeOf = (action: string) => stored.find((entry) => entry.action === action)!.createdAt.toISOString();
    const offsetOf = (action: string) => Number(microseconds.find((row) => row.action === action)!.us);
    expect([timeOf("Start"), timeOf("UpdateDraft"), timeOf("Complete"), timeOf("ReporterLogin")]).toEqual(["2026-03-04T00:00:00.000Z", "2026-03-04T00:00:00.000Z", "2026-03-04T00:00:00.000Z", "2026-03-06T00:00:00.000Z"]);
    expect([offsetOf("Start"), offsetOf("UpdateDraft"), offsetOf("Complete"), offsetOf("ReporterLogin")]).toEqual([0, 1, 2, 0]);
    expect(timeOf("Join")).toBe("2026-03-04T16:00:00.123Z");
    expect(timeOf("SetPriority")).toBe("2026-03-05T09:10:11.012Z");
    const [row] = await server.db.select({ createdAt: reportSubmissions.createdAt }).from(reportSubmissions).where(eq(reportSubmissions.id, target.id));
    expect(row!.createdAt.toISOString()).toBe("2026-03-04T00:00:00.000Z");
  });

  test("gives uploads stored with their time their day and their order among the report's uploads, and their blobs their day", async () => {
    const files = await server.db.select().from(reportSubmissionAttachments).where(eq(reportSubmissionAttachments.submissionId, report.id)).orderBy(asc(reportSubmissionAttachments.createdAt));
    const [first, second] = files;
    // As an older release stored them: the second upload a minute after the first, the next day's later.
    await server.db.update(reportSubmissionAttachments).set({ createdAt: new Date("2026-03-04T15:17:02.345Z") }).where(eq(reportSubmissionAttachments.id, second!.id));
    await server.db.update(reportSubmissionAttachments).set({ createdAt: new Date("2026-03-04T15:16:01.234Z") }).where(eq(reportSubmissionAttachments.id, first!.id));
    await server.db.update(blobs).set({ createdAt: new Date("2026-03-04T15:16:01.230Z") }).where(inArray(blobs.id, [first!.blobId, second!.blobId]));
    await runMigration("upload_day_grain");

    const after = await server.db.select().from(reportSubmissionAttachments).where(eq(reportSubmissionAttachments.submissionId, report.id)).orderBy(asc(reportSubmissionAttachments.createdAt));
    expect(after.map((file) => file.id)).toEqual([first!.id, second!.id]);
    expect(after.map((file) => file.createdAt.toISOString())).toEqual(["2026-03-04T00:00:00.000Z", "2026-03-04T00:00:00.000Z"]);
    expect(await offsets("report_submission_attachments", "created_at", "submission_id", report.id)).toEqual([0, 1]);
    const blobRows = await server.db.select({ createdAt: blobs.createdAt }).from(blobs).where(inArray(blobs.id, [first!.blobId, second!.blobId]));
    expect(blobRows.map((row) => row.createdAt.toISOString())).toEqual(["2026-03-04T00:00:00.000Z", "2026-03-04T00:00:00.000Z"]);
  });
});
