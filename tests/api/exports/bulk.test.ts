import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, isNull, like, sql } from "drizzle-orm";
import { organisations, reportForms, reportSubmissions, reportSubmissionTags, tags, userActivities } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { CSV_COLUMNS, TOO_MANY_REPORTS } from "../../../api/modules/exports/service.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, demoStaff, loginAs, type DemoStaff, type StaffClient } from "../../helpers/session.ts";
import { parseCsv, readZip, unzipTool } from "../../helpers/zip-reader.ts";

type Row = typeof reportSubmissions.$inferSelect;
let server: TestServer;
let as: DemoStaff;
let northwindOwner: StaffClient;
let demoId: string;
let northwindId: string;
let freshReportID: string;
let testReport: Row;
let tricky: Row;

const SECRET_ANSWER = "Secret answer text that must stay in the console";
const FORMULA_TAG = '=HYPERLINK("http://evil.example","x")';
const TRICKY_REFERENCE = '-2+3, "quoted"\nsecond line';
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  const orgs = await server.db.select().from(organisations);
  demoId = orgs.find((o) => o.slug === "demo")!.id;
  northwindId = orgs.find((o) => o.slug === "northwind")!.id;
  const main = await demoForm(server, "demo", "Workplace Misconduct Report");
  freshReportID = (await submitReport(new ReporterClient(server, "demo.localhost"), main.form.id, main.widgets, { w_summary: [SECRET_ANSWER] })).reportID;

  const active = await visible(demoId);
  testReport = active.find((r) => r.status === "New" && r.reportId !== freshReportID)!;
  tricky = active.find((r) => r.status === "Assigned")!;
  await server.db.update(reportSubmissions).set({ isTest: true }).where(eq(reportSubmissions.id, testReport.id));
  await server.db.update(reportSubmissions).set({ internalReference: TRICKY_REFERENCE, status: "NotInvestigated" }).where(eq(reportSubmissions.id, tricky.id));
  const [tag] = await server.db.insert(tags).values({ organisationId: demoId, name: FORMULA_TAG }).returning();
  await server.db.insert(reportSubmissionTags).values({ submissionId: tricky.id, tagId: tag!.id });

  as = await demoStaff(server);
  northwindOwner = await loginAs(server, "owner@northwind.test", DEMO_PASSWORD);
});
afterAll(() => server.stop());

/** The reports the list shows by default (Active): completed, not deleted, not archived. */
async function visible(organisationId: string | null, options: { archived?: boolean } = {}): Promise<Row[]> {
  const rows = await server.db
    .select()
    .from(reportSubmissions)
    .where(and(eq(reportSubmissions.completed, true), isNull(reportSubmissions.deletedAt), ...(organisationId ? [eq(reportSubmissions.organisationId, organisationId)] : [])));
  return rows.filter((r) => options.archived || !r.archived);
}
const exportable = async (organisationId: string | null, options: { archived?: boolean } = {}) => (await visible(organisationId, options)).filter((r) => !r.isTest);
const fileNames = (rows: Row[]) => rows.map((r) => `Report ${r.reportId}.html`).sort();

const post = (client: StaffClient, path: "export-all" | "download-csv", body: unknown = { search: { excludeTestReports: true }, limit: -1, offset: 0 }, contentType = "application/json") =>
  client.fetch(`/api/report-submissions/${path}`, { method: "POST", headers: { "Content-Type": contentType }, body: typeof body === "string" ? body : JSON.stringify(body) });

async function zipOf(response: Response): Promise<Map<string, Uint8Array>> {
  expect(response.status).toBe(200);
  return readZip(new Uint8Array(await response.arrayBuffer()));
}
const lastAudit = async (action: string) =>
  (await server.db.select().from(userActivities).where(eq(userActivities.action, action))).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).at(-1);

describe("POST /api/report-submissions/export-all", () => {
  test("allowed: the owner gets a zip of one HTML file per visible report, test reports left out", async () => {
    const response = await post(as.owner, "export-all");
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="reports-export-${today()}.zip"`);
    const archive = new Uint8Array(await response.clone().arrayBuffer());
    const files = await zipOf(response);
    const expected = fileNames(await exportable(demoId));
    expect([...files.keys()].sort()).toEqual(expected);
    expect(files.has(`Report ${testReport.reportId}.html`)).toBe(false);
    const html = new TextDecoder().decode(files.get(`Report ${freshReportID}.html`));
    expect(html).toContain(`<h1>Report ${freshReportID}</h1>`);
    expect(html).toContain(SECRET_ANSWER);
    const tool = unzipTool(archive);
    if (tool) {
      expect(tool.ok).toBe(true);
      expect(tool.names.sort()).toEqual(expected);
    }
    expect(await lastAudit("ExportAll")).toMatchObject({ organisationId: demoId, objectType: "ReportSubmission", metadata: { count: expected.length } });
  });

  test("test reports stay out even when the body asks for them; the list's filters apply", async () => {
    const withTests = await zipOf(await post(as.admin, "export-all", { search: { excludeTestReports: false }, limit: -1, offset: 0 }));
    expect(withTests.has(`Report ${testReport.reportId}.html`)).toBe(false);
    const all = await zipOf(await post(as.admin, "export-all", { search: { filter: "All" } }));
    expect([...all.keys()].sort()).toEqual(fileNames(await exportable(demoId, { archived: true })));
    const one = await zipOf(await post(as.admin, "export-all", { search: { text: freshReportID } }));
    expect([...one.keys()]).toEqual([`Report ${freshReportID}.html`]);
  });

  test("denied: super admins, members and guests get 403, anonymous 401", async () => {
    for (const client of [as.superAdmin, as.member, as.guest]) {
      const response = await post(client, "export-all");
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: "You do not have permission to do this." });
    }
    expect((await post(anonymous(server), "export-all")).status).toBe(401);
  });

  test("another organisation's owner gets only their own reports, and not found for the Demo organisation", async () => {
    const files = await zipOf(await post(northwindOwner, "export-all"));
    expect([...files.keys()].sort()).toEqual(fileNames(await exportable(northwindId)));
    const response = await post(northwindOwner, "export-all", { search: { organisationID: demoId }, limit: -1, offset: 0 });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: "Organisation is not found" });
  });

  test("malformed bodies are refused with 400, non-JSON requests with 415", async () => {
    for (const body of ["not json", "[1]", { limit: 20 }, { offset: 40 }, { search: "text" }, { search: { filter: "Everything" } }, { search: { dateFilter: { from: "2999-01-01" } } }]) {
      const response = await post(as.owner, "export-all", body);
      expect(response.status).toBe(400);
      expect(typeof ((await response.json()) as { error: unknown }).error).toBe("string");
    }
    expect((await post(as.owner, "export-all", "search=x", "application/x-www-form-urlencoded")).status).toBe(415);
    expect((await post(as.owner, "download-csv", "{}", "text/plain")).status).toBe(415);
  });

  test("more than 5,000 matching reports are refused with a clear message", async () => {
    const [form] = await server.db.select().from(reportForms).where(eq(reportForms.organisationId, northwindId)).limit(1);
    await server.db.execute(
      sql`insert into report_submissions (organisation_id, form_id, report_id, completed, status, completed_at) select ${northwindId}::uuid, ${form!.id}::uuid, 'BULK-' || g, true, 'New', now() from generate_series(1, 5001) g`,
    );
    try {
      const response = await post(northwindOwner, "export-all");
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: TOO_MANY_REPORTS });
    } finally {
      await server.db.delete(reportSubmissions).where(like(reportSubmissions.reportId, "BULK-%"));
    }
  });
});

describe("POST /api/report-submissions/download-csv", () => {
  async function csvOf(client: StaffClient, body?: unknown) {
    const response = await post(client, "download-csv", body);
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { response, bytes, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes) };
  }

  test("allowed: the owner gets a CSV with a BOM, the header row and one row per visible report", async () => {
    const { response, bytes, text } = await csvOf(as.owner);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="reports-${today()}.csv"`);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header).toEqual([...CSV_COLUMNS]);
    const expected = await exportable(demoId);
    expect(rows.map((row) => row[0]).sort()).toEqual(expected.map((r) => r.reportId!).sort());
    const fresh = expected.find((r) => r.reportId === freshReportID)!;
    expect(rows.find((row) => row[0] === freshReportID)).toEqual([
      freshReportID,
      "Workplace Misconduct Report",
      "Demo Organisation",
      "New",
      "Low",
      "",
      "",
      "",
      fresh.completedAt!.toISOString(),
      fresh.updatedAt.toISOString(),
    ]);
    expect(await lastAudit("ExportCsv")).toMatchObject({ organisationId: demoId, metadata: { count: expected.length } });
  });

  test("escapes quotes, commas and line breaks, neutralises formulas, and spaces status labels", async () => {
    const { text } = await csvOf(as.admin);
    expect(text).toContain(`"'-2+3, ""quoted""\nsecond line"`);
    // Tags are listed by name, so the formula tag comes first in its cell.
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")`);
    const row = parseCsv(text.slice(1)).find((cells) => cells[0] === tricky.reportId)!;
    expect(row[3]).toBe("Not Investigated");
    expect(row[5]).toBe(`'${TRICKY_REFERENCE}`);
    expect(row[6]!.startsWith(`'${FORMULA_TAG}`)).toBe(true);
    expect(row[7]).toMatch(/^[A-Z][a-z]+ [A-Z]\.(; [A-Z][a-z]+ [A-Z]\.)*$/);
  });

  test("carries no answers, and no test reports whatever the body says", async () => {
    const { text } = await csvOf(as.owner, { search: { excludeTestReports: false }, limit: -1, offset: 0 });
    expect(text).not.toContain(SECRET_ANSWER);
    expect(text).not.toContain(testReport.reportId!);
  });

  test("a super admin gets every organisation's reports, never the internal reference", async () => {
    const [, ...rows] = parseCsv((await csvOf(as.superAdmin)).text.slice(1));
    expect(rows.map((row) => row[0]).sort()).toEqual((await exportable(null)).map((r) => r.reportId!).sort());
    expect(new Set(rows.map((row) => row[2]))).toEqual(new Set(["Demo Organisation", "Northwind"]));
    expect(rows.every((row) => row[5] === "")).toBe(true);
    const [, ...demoOnly] = parseCsv((await csvOf(as.superAdmin, { search: { organisationID: demoId } })).text.slice(1));
    expect(demoOnly.length).toBe((await exportable(demoId)).length);
  });

  test("denied: members and guests get 403, anonymous 401; another organisation's id is not found", async () => {
    for (const client of [as.member, as.guest]) expect((await post(client, "download-csv")).status).toBe(403);
    expect((await post(anonymous(server), "download-csv")).status).toBe(401);
    expect((await post(northwindOwner, "download-csv", { search: { organisationID: demoId } })).status).toBe(404);
    const [, ...rows] = parseCsv((await csvOf(northwindOwner)).text.slice(1));
    expect(rows.every((row) => row[2] === "Northwind")).toBe(true);
    expect(rows.length).toBe((await exportable(northwindId)).length);
  });
});
