import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { organisations, reportSubmissions, userActivities } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { upload } from "../../fixtures/attachments.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, demoStaff, joinTeam, loginAs, type DemoStaff, type StaffClient } from "../../helpers/session.ts";

let server: TestServer;
let as: DemoStaff;
let northwindOwner: StaffClient;
let fresh: { id: string; reportID: string };
let northwindReportId: string;
let draftId: string;

const SCRIPT = "<script>alert(1)</script>";
const INERT_ELEMENTS = new Set(["html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "table", "tr", "th", "td", "span", "p", "div", "footer"]);
const SEND = `mutation ($id: ID, $text: String!) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $text }) { id } }`;
const NOTE = `mutation ($id: ID!, $note: String!) { reportSubmissionNoteCreate(reportSubmissionID: $id, note: $note) { id } }`;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  const main = await demoForm(server, "demo", "Workplace Misconduct Report");
  const reporter = new ReporterClient(server, "demo.localhost");
  const started = await reporter.post<{ submissionID: string }>("/api/auth/report_start", { reportFormID: main.form.id });
  expect((await upload(reporter, "evidence <b>.txt", "first file")).status).toBe(200);
  const done = await submitReport(reporter, main.form.id, main.widgets, { w_summary: [`Title ${SCRIPT} & "more"`] });
  fresh = { id: started.body.submissionID, reportID: done.reportID };
  draftId = (await new ReporterClient(server, "demo.localhost").post<{ submissionID: string }>("/api/auth/report_start", { reportFormID: main.form.id })).body.submissionID;
  await server.db.update(reportSubmissions).set({ internalReference: "HR-<i>9</i>" }).where(eq(reportSubmissions.id, fresh.id));

  as = await demoStaff(server);
  northwindOwner = await loginAs(server, "owner@northwind.test", DEMO_PASSWORD);
  await joinTeam(as.owner, fresh.id);
  expect((await as.owner.gql(NOTE, { id: fresh.id, note: "Note with <img src=x onerror=alert(2)>" })).errors).toBeUndefined();
  expect((await as.owner.gql(SEND, { id: fresh.id, text: "Staff asks </div><b>bold</b>" })).errors).toBeUndefined();
  const follow = new ReporterClient(server, "demo.localhost");
  expect((await follow.post("/api/auth/report_login", { reportID: done.reportID, password: done.generatedPassword })).status).toBe(200);
  expect((await follow.gql(SEND, { text: "Reporter answers <u>here</u>" })).errors).toBeUndefined();

  const [northwind] = await server.db
    .select({ id: reportSubmissions.id })
    .from(reportSubmissions)
    .innerJoin(organisations, eq(organisations.id, reportSubmissions.organisationId))
    .where(and(eq(organisations.slug, "northwind"), eq(reportSubmissions.completed, true)))
    .limit(1);
  northwindReportId = northwind!.id;
});
afterAll(() => server.stop());

const exportOf = (client: StaffClient, id: string) => client.fetch(`/api/report-submissions/export/${id}`);
const exports = (id: string) => server.db.select().from(userActivities).where(and(eq(userActivities.objectId, id), eq(userActivities.action, "Export")));

describe("GET /api/report-submissions/export/:id", () => {
  test("allowed: the owner downloads a self-contained HTML file with a strict CSP, named after the report", async () => {
    const response = await exportOf(as.owner, fresh.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename*=UTF-8''Report%20${fresh.reportID}.html`);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = await response.text();
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain(`<title>Report ${fresh.reportID}</title>`);
    // Nothing is loaded from anywhere: only the fixed, inert elements of the template occur.
    const elements = new Set([...html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)/g)].map((match) => match[1]!.toLowerCase()));
    expect([...elements].filter((name) => !INERT_ELEMENTS.has(name))).toEqual([]);
  });

  test("holds the report: details, answers by page with dd/MM/yyyy dates, files, notes and the chat", async () => {
    const html = await (await exportOf(as.admin, fresh.id)).text();
    for (const expected of [
      "Workplace Misconduct Report",
      "Demo Organisation",
      ">Assigned<",
      ">Low<",
      "HR-&lt;i&gt;9&lt;/i&gt;",
      "Olivia B. (owner)",
      "<h3>Summary</h3>",
      "14/03/2026",
      "evidence &lt;b&gt;.txt",
      "10 bytes",
      "Note with &lt;img src=x onerror=alert(2)&gt;",
      "Staff asks &lt;/div&gt;&lt;b&gt;bold&lt;/b&gt;",
      "Reporter answers &lt;u&gt;here&lt;/u&gt;",
    ])
      expect(html).toContain(expected);
    expect(html).toMatch(/Reporter · \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} UTC/);
    expect(html).toMatch(/Olivia B\. · \d{2}\/\d{2}\/\d{4}/);
    expect(html).not.toContain("2026-03-14");
  });

  test("report text cannot inject markup: the answer's script tag arrives escaped", async () => {
    const html = await (await exportOf(as.owner, fresh.id)).text();
    expect(html).toContain("Title &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;more&quot;");
    expect(html).not.toContain(SCRIPT);
    expect(html).not.toContain("<b>");
  });

  test("each export is audited as 'Export' by the exporting user", async () => {
    const before = (await exports(fresh.id)).length;
    expect((await exportOf(as.owner, fresh.id)).status).toBe(200);
    const after = await exports(fresh.id);
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)).toMatchObject({ objectType: "ReportSubmission", objectCode: fresh.reportID });
    expect(after.every((row) => row.userId !== null)).toBe(true);
  });

  test("a super admin may export any organisation's report, without the internal reference", async () => {
    const response = await exportOf(as.superAdmin, fresh.id);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).not.toContain("Internal Reference");
    expect(html).not.toContain("HR-");
    expect((await exportOf(as.superAdmin, northwindReportId)).status).toBe(200);
  });

  test("denied: members and guests get 403 even for reports they are on; anonymous 401", async () => {
    const [assigned] = await server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.internalReference, "HR-2041"));
    for (const client of [as.member, as.guest]) {
      for (const id of [assigned!.id, fresh.id]) {
        const response = await exportOf(client, id);
        expect(response.status).toBe(403);
        expect(await response.json()).toMatchObject({ error: "You do not have permission to do this." });
      }
    }
    expect((await exportOf(anonymous(server), fresh.id)).status).toBe(401);
  });

  test("another organisation's report, a draft, malformed and unknown ids are not found, and nothing is audited", async () => {
    const before = (await exports(fresh.id)).length;
    const response = await exportOf(northwindOwner, fresh.id);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: "Report Submission is not found" });
    expect((await exportOf(as.owner, northwindReportId)).status).toBe(404);
    expect((await exportOf(as.owner, draftId)).status).toBe(404);
    expect((await exportOf(as.owner, "not-a-uuid")).status).toBe(404);
    expect((await exportOf(as.owner, crypto.randomUUID())).status).toBe(404);
    expect((await exports(fresh.id)).length).toBe(before);
  });
});
