import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { organisations, reportSubmissions, userActivities } from "../../../db/schema/index.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { addCalendarMonths } from "../../../api/modules/legal-clocks/clocks.ts";
import { RETENTION_MONTHS_INVALID } from "../../../api/shared/retention.ts";
import { startMailingDemo } from "../../helpers/notification-mail.ts";
import { closeAsOwner, HOLD, reportWithFile, SET_RETENTION, stored } from "../../helpers/retention.ts";
import { ReporterClient, submitReport } from "../../helpers/reporter.ts";
import type { TestServer } from "../../helpers/server.ts";
import { anonymous, demoStaff, loginAs, type DemoStaff, type StaffClient } from "../../helpers/session.ts";
import type { TestSmtpServer } from "../../helpers/smtp-server.ts";

/** Legal hold (who may), the report's retention fields and the setting's bounds (decision 052). */

let smtp: TestSmtpServer;
let server: TestServer;
let main: Awaited<ReturnType<typeof startMailingDemo>>["main"];
let demoId: string;
let as: DemoStaff & { northwind: StaffClient };

beforeAll(async () => {
  ({ smtp, server, demoId, main } = await startMailingDemo());
  as = { ...(await demoStaff(server)), northwind: await loginAs(server, "owner@northwind.test", DEMO_PASSWORD) };
}, 60_000);
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

const FIELDS = `query ($id: ID!) { reportSubmissionGet(id: $id) { legalHold closedAt deletionDueAt } }`;
type Fields = { legalHold: boolean; closedAt: string | null; deletionDueAt: string | null };
const fieldsOf = async (client: StaffClient, id: string) => (await client.gql<{ reportSubmissionGet: Fields }>(FIELDS, { id })).data!.reportSubmissionGet;
const holdAudit = (id: string) => server.db.select({ action: userActivities.action, userId: userActivities.userId }).from(userActivities).where(and(eq(userActivities.objectId, id), inArray(userActivities.action, ["LegalHold", "LegalHoldRelease"])));
const errorOf = (result: { errors?: { message: string; extensions?: { code?: string } }[] }) => result.errors?.[0];
const retentionOf = async () => (await server.db.select({ months: organisations.retentionMonths }).from(organisations).where(eq(organisations.id, demoId)))[0]!.months;

describe("reportSubmissionLegalHold", () => {
  test("allowed: the owner holds, an admin releases, the super admin holds; each in the audit log, and the report shows it", async () => {
    await as.owner.gql(SET_RETENTION, { id: demoId, months: 12 });
    const report = await closeAsOwner(server, as.owner, await reportWithFile(server, main, "Overtime is logged but never paid"));
    const before = await fieldsOf(as.owner, report.id);
    expect(before).toEqual({ legalHold: false, closedAt: report.closedAt!.toISOString(), deletionDueAt: addCalendarMonths(report.closedAt!, 12).toISOString() });

    const held = await as.owner.gql<{ reportSubmissionLegalHold: Fields }>(HOLD, { id: report.id, hold: true });
    expect(held.errors).toBeUndefined();
    expect(held.data!.reportSubmissionLegalHold).toMatchObject({ legalHold: true, deletionDueAt: null });
    expect(errorOf(await as.owner.gql(HOLD, { id: report.id, hold: true }))?.message).toBe("Report is already on legal hold.");

    expect((await as.admin.gql(HOLD, { id: report.id, hold: false })).errors).toBeUndefined();
    expect((await fieldsOf(as.admin, report.id)).legalHold).toBe(false);
    expect(errorOf(await as.admin.gql(HOLD, { id: report.id, hold: false }))?.message).toBe("Report is not on legal hold.");
    expect((await as.superAdmin.gql(HOLD, { id: report.id, hold: true })).errors).toBeUndefined();
    expect((await stored(server, report.id)).legalHold).toBe(true);
    expect((await holdAudit(report.id)).map((entry) => entry.action)).toEqual(["LegalHold", "LegalHoldRelease", "LegalHold"]);
    await as.owner.gql(SET_RETENTION, { id: demoId, months: null });
  });

  test("denied: a member on the team, a guest, another organisation's owner, a reporter, no one signed in, a malformed id; nothing changes", async () => {
    const report = await reportWithFile(server, main, "Safety checks are signed without being done");
    await as.owner.gql(`mutation ($id: ID!, $u: ID!) { reportSubmissionAssignUser(id: $id, userID: $u) { id } }`, {
      id: report.id,
      u: (await as.member.gql<{ viewer: { id: string } }>(`{ viewer { id } }`)).data!.viewer.id,
    });
    expect(errorOf(await as.member.gql(HOLD, { id: report.id, hold: true }))?.extensions?.code).toBe("FORBIDDEN");
    expect(errorOf(await as.guest.gql(HOLD, { id: report.id, hold: true }))?.extensions?.code).toBe("FORBIDDEN");
    expect(errorOf(await as.northwind.gql(HOLD, { id: report.id, hold: true }))?.message).toBe("Report Submission is not found");
    const reporter = new ReporterClient(server, "demo.localhost");
    const credentials = await submitReport(reporter, main.form.id, main.widgets);
    await reporter.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword });
    const [own] = await server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
    expect((await reporter.gql(HOLD, { id: own!.id, hold: true })).errors).toBeDefined();
    expect((await anonymous(server).gql(HOLD, { id: report.id, hold: true })).errors).toBeDefined();
    expect(errorOf(await as.owner.gql(HOLD, { id: "not-a-report", hold: true }))?.message).toBe("Report Submission is not found");
    for (const id of [report.id, own!.id]) {
      expect((await stored(server, id)).legalHold).toBe(false);
      expect(await holdAudit(id)).toEqual([]);
    }
  });
});

describe("the retention setting", () => {
  test("whole months from 1 to 120 or null (Off) are taken; anything else is refused with the same message and nothing changes", async () => {
    expect((await as.owner.gql<{ organisationUpdate: { retentionMonths: number | null } }>(SET_RETENTION, { id: demoId, months: 12 })).data?.organisationUpdate.retentionMonths).toBe(12);
    for (const months of [0, 121, -1, 1e9]) {
      expect(errorOf(await as.owner.gql(SET_RETENTION, { id: demoId, months }))?.message).toBe(RETENTION_MONTHS_INVALID);
    }
    // Not an Int at all: GraphQL refuses the variable before anything runs.
    expect((await as.owner.gql(SET_RETENTION, { id: demoId, months: "12" })).errors?.[0]?.message).toContain("Int");
    expect(errorOf(await as.owner.gql(SET_RETENTION, { id: demoId, months: 1.5 }))).toBeDefined();
    expect(await retentionOf()).toBe(12);
    expect((await as.admin.gql<{ organisationUpdate: { retentionMonths: number | null } }>(SET_RETENTION, { id: demoId, months: 120 })).data?.organisationUpdate.retentionMonths).toBe(120);
    expect((await as.owner.gql<{ organisationUpdate: { retentionMonths: number | null } }>(SET_RETENTION, { id: demoId, months: null })).data?.organisationUpdate.retentionMonths).toBeNull();
    expect(await retentionOf()).toBeNull();
  });

  test("denied: a member, and another organisation's owner", async () => {
    expect(errorOf(await as.member.gql(SET_RETENTION, { id: demoId, months: 3 }))?.extensions?.code).toBe("FORBIDDEN");
    expect(errorOf(await as.northwind.gql(SET_RETENTION, { id: demoId, months: 3 }))).toBeDefined();
    expect(await retentionOf()).toBeNull();
  });

  test("an open report shows no deletion date; with retention off neither does a closed one", async () => {
    const open = await reportWithFile(server, main, "Receipts are reused across expense claims");
    expect(await fieldsOf(as.owner, open.id)).toEqual({ legalHold: false, closedAt: null, deletionDueAt: null });
    const closed = await closeAsOwner(server, as.owner, open);
    expect(await fieldsOf(as.owner, closed.id)).toEqual({ legalHold: false, closedAt: closed.closedAt!.toISOString(), deletionDueAt: null });
  });
});
