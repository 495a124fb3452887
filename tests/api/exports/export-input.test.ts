import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { reportSubmissions, reportSubmissionTags, tags, userActivities } from "../../../db/schema/index.ts";
import { startDemoWithStaff } from "../../helpers/demo.ts";
import type { TestServer } from "../../helpers/server.ts";
import type { DemoStaff, StaffClient } from "../../helpers/session.ts";
import { parseCsv } from "../../helpers/zip-reader.ts";

/**
 * Every export input is checked before anything is read or recorded: a wrong type, a field the list
 * does not know, another organisation's id or a tag that is not there is refused with a clear
 * message, no file, and no audit entry.
 */

let server: TestServer;
let as: DemoStaff;
let northwind: StaffClient;
let demoId: string;
let northwindId: string;
let demoTag: { id: string; reportId: string };
let northwindTagId: string;
let demoReportId: string;

beforeAll(async () => {
  ({ server, as, northwind, demoId, northwindId } = await startDemoWithStaff());
  const [tagged] = await server.db
    .select({ tagId: reportSubmissionTags.tagId, reportId: reportSubmissions.reportId })
    .from(reportSubmissionTags)
    .innerJoin(reportSubmissions, eq(reportSubmissions.id, reportSubmissionTags.submissionId))
    .where(and(eq(reportSubmissions.organisationId, demoId), eq(reportSubmissions.completed, true), eq(reportSubmissions.archived, false), eq(reportSubmissions.isTest, false)))
    .limit(1);
  demoTag = { id: tagged!.tagId, reportId: tagged!.reportId! };
  const [northwindTag] = await server.db.insert(tags).values({ organisationId: northwindId, name: "Northwind only" }).returning();
  northwindTagId = northwindTag!.id;
  const [report] = await server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(and(eq(reportSubmissions.organisationId, demoId), eq(reportSubmissions.completed, true))).limit(1);
  demoReportId = report!.id;
}, 60_000);
afterAll(() => server.stop());

const EXPORT_ACTIONS = ["Export", "ExportAll", "ExportCsv"];
const auditCount = async () => (await server.db.select().from(userActivities).where(inArray(userActivities.action, EXPORT_ACTIONS))).length;
const post = (client: StaffClient, path: string, body: unknown) =>
  client.fetch(`/api/report-submissions/${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

describe.each(["export-all", "download-csv"])("POST /api/report-submissions/%s", (path) => {
  test("allowed: the list's filters, by a tag of one's own and one's own organisation, export the matching reports and are audited", async () => {
    const before = await auditCount();
    const response = await post(as.owner, path, { search: { tagIDs: [demoTag.id], organisationID: demoId, sortBy: "DateUpdated", sortDir: "Ascending", text: null }, reportFormID: null, limit: -1, offset: 0 });
    expect(response.status).toBe(200);
    if (path === "download-csv") {
      const [, ...rows] = parseCsv((await response.text()).slice(1));
      expect(rows.map((row) => row[0])).toContain(demoTag.reportId);
    }
    expect(await auditCount()).toBe(before + 1);
  });

  const refusals: { name: string; body: () => unknown; status: number; message: string | RegExp }[] = [
    { name: "an object where the organisation id goes", body: () => ({ search: { organisationID: { x: 1 } } }), status: 400, message: /^search\.organisationID: Invalid type/ },
    { name: "a number where the search text goes", body: () => ({ search: { text: 5 } }), status: 400, message: /^search\.text: Invalid type/ },
    { name: "a text where the tag list goes", body: () => ({ search: { tagIDs: "x" } }), status: 400, message: /^search\.tagIDs: Invalid type/ },
    { name: "a number where the form id goes", body: () => ({ reportFormID: 5 }), status: 400, message: "reportFormID must be a report form id (text)." },
    { name: "a list as the search", body: () => ({ search: [] }), status: 400, message: "search must be a JSON object." },
    { name: "a list as the date filter, which would read as no filter", body: () => ({ search: { dateFilter: [] } }), status: 400, message: "search.dateFilter must be a JSON object." },
    { name: "a field the date filter does not know", body: () => ({ search: { dateFilter: { since: "2020-01-01" } } }), status: 400, message: 'Unknown field "search.dateFilter.since" in the export request.' },
    { name: "a field the list does not know, beside the search", body: () => ({ organisationID: { x: 1 } }), status: 400, message: 'Unknown field "organisationID" in the export request.' },
    { name: "a field the list does not know, in the search", body: () => ({ search: { status: "New" } }), status: 400, message: 'Unknown field "search.status" in the export request.' },
    { name: "a page size", body: () => ({ limit: 20 }), status: 400, message: "limit must be -1 (every matching report)" },
    { name: "another organisation's id", body: () => ({ search: { organisationID: northwindId } }), status: 404, message: "Organisation is not found" },
    { name: "another organisation's tag", body: () => ({ search: { tagIDs: [northwindTagId] } }), status: 404, message: "Tag not found" },
    { name: "a tag that does not exist", body: () => ({ search: { tagIDs: [demoTag.id, crypto.randomUUID()] } }), status: 404, message: "Tag not found" },
    { name: "a tag id that is not an id", body: () => ({ search: { tagIDs: ["zz"] } }), status: 404, message: "Tag not found" },
  ];

  test.each(refusals)("denied: $name is refused with a clear message, no file and no audit entry", async ({ body, status, message }) => {
    const before = await auditCount();
    const response = await post(as.owner, path, body());
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toStartWith("application/json");
    const answer = (await response.json()) as { error: string };
    if (typeof message === "string") expect(answer.error).toBe(message);
    else expect(answer.error).toMatch(message);
    expect(await auditCount()).toBe(before);
  });

  test("a super admin may filter by any organisation's tag, and still not by one that does not exist", async () => {
    if (path === "export-all") return; // The zip is for owners and admins only (spec §2).
    expect((await post(as.superAdmin, path, { search: { tagIDs: [northwindTagId] } })).status).toBe(200);
    expect((await post(as.superAdmin, path, { search: { tagIDs: [northwindTagId], organisationID: demoId } })).status).toBe(404);
    expect((await post(as.superAdmin, path, { search: { tagIDs: [crypto.randomUUID()] } })).status).toBe(404);
    expect((await post(northwind, path, { search: { tagIDs: [northwindTagId] } })).status).toBe(200);
  });
});

describe("GET /api/report-submissions/export/:id", () => {
  test("allowed: one's own organisation's report is exported and audited", async () => {
    const before = await auditCount();
    expect((await as.owner.fetch(`/api/report-submissions/export/${demoReportId}`)).status).toBe(200);
    expect(await auditCount()).toBe(before + 1);
  });

  test.each([
    ["not an id", "not-a-uuid"],
    ["a 5,000 character id", "a".repeat(5000)],
    ["an encoded NUL", "%00"],
    ["an id with a query", `${crypto.randomUUID()}?x=1`],
    ["an unknown id", crypto.randomUUID()],
  ])("denied: %s is not found, and nothing is audited", async (_name, id) => {
    const before = await auditCount();
    const response = await as.owner.fetch(`/api/report-submissions/export/${id}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: "Report Submission is not found" });
    expect(await auditCount()).toBe(before);
  });

  test("denied: another organisation's report is not found for its owner", async () => {
    const before = await auditCount();
    expect((await northwind.fetch(`/api/report-submissions/export/${demoReportId}`)).status).toBe(404);
    expect(await auditCount()).toBe(before);
  });
});
