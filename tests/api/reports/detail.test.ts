import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { organisations, reportSubmissionAnswers, reportSubmissionAssignees, reportSubmissions, users } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD, DEMO_REPORT_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { derivePages } from "../../../api/shared/form-definition.ts";
import { ATTACHMENTS_PATH, upload } from "../../fixtures/attachments.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, loginAs, type StaffClient, demoStaff, type DemoStaff } from "../../helpers/session.ts";
import { setTwoFactorActivated } from "../../helpers/two-factor.ts";

let server: TestServer;
let main: Awaited<ReturnType<typeof demoForm>>;
let as: DemoStaff;
/** A report made through the reporter's journey, with two attachments; nobody is on its team. */
let fresh: { id: string; reportID: string; password: string };
let demoAssigned: typeof reportSubmissions.$inferSelect;
let demoRejected: typeof reportSubmissions.$inferSelect;
let northwindReport: typeof reportSubmissions.$inferSelect;
let draftId: string;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  main = await demoForm(server, "demo", "Workplace Misconduct Report");
  const reporter = new ReporterClient(server, "demo.localhost");
  const started = await reporter.post<{ submissionID: string }>("/api/auth/report_start", { reportFormID: main.form.id });
  expect((await upload(reporter, "notes.txt", "first file")).status).toBe(200);
  expect((await upload(reporter, "more.txt", "second, longer file")).status).toBe(200);
  const done = await submitReport(reporter, main.form.id, main.widgets);
  fresh = { id: started.body.submissionID, reportID: done.reportID, password: done.generatedPassword };
  draftId = (await new ReporterClient(server, "demo.localhost").post<{ submissionID: string }>("/api/auth/report_start", { reportFormID: main.form.id })).body.submissionID;

  const orgs = await server.db.select().from(organisations);
  const orgId = (slug: string) => orgs.find((o) => o.slug === slug)!.id;
  const first = async (slug: string, status: "Assigned" | "Rejected" = "Assigned") =>
    (await server.db.select().from(reportSubmissions).where(and(eq(reportSubmissions.organisationId, orgId(slug)), eq(reportSubmissions.status, status))))[0]!;
  demoAssigned = await first("demo");
  demoRejected = await first("demo", "Rejected");
  northwindReport = await first("northwind");
  as = await demoStaff(server);
});
afterAll(() => server.stop());

const DETAIL = `query ($id: ID!) { reportSubmissionGet(id: $id) {
  id reportID internalReference pagesCount
  answers { name answers { widgetID title type answer } }
  attachments { id fileName fileSizeBytes mimeType fileURL } } }`;
const REPORTER_VIEW = `{ reporterSubmission { pages { name answers { widgetID title type answer } } attachments { id fileName fileSizeBytes mimeType fileURL } } }`;

interface Detail {
  id: string;
  reportID: string;
  internalReference: string | null;
  pagesCount: number;
  answers: { name: string; answers: { widgetID: string; title: string; type: string; answer: string[] }[] }[];
  attachments: { id: string; fileName: string; fileSizeBytes: number; mimeType: string; fileURL: string }[];
}

async function detail(client: StaffClient, id: string): Promise<Detail> {
  const result = await client.gql<{ reportSubmissionGet: Detail }>(DETAIL, { id });
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data!.reportSubmissionGet;
}

/** What the reporter of a report sees in their follow-up area. */
async function reporterView(reportID: string, password: string) {
  const reporter = new ReporterClient(server, "demo.localhost");
  expect((await reporter.post("/api/auth/report_login", { reportID, password })).status).toBe(200);
  const view = await reporter.gql<{ reporterSubmission: { pages: Detail["answers"]; attachments: Detail["attachments"] } }>(REPORTER_VIEW);
  return view.data!.reporterSubmission;
}

const expectNotFound = async (client: StaffClient, id: string) => {
  const result = await client.gql(DETAIL, { id });
  expect(result.data).toBeNull();
  expect(result.errors?.[0]).toMatchObject({ message: "Report Submission is not found", extensions: { code: "NOT_FOUND" } });
};

describe("reportSubmissionGet", () => {
  test("allowed: the owner sees the answers page by page exactly as the reporter does, 'Summary' first", async () => {
    const report = await detail(as.owner, fresh.id);
    const mine = await reporterView(fresh.reportID, fresh.password);
    expect(report.reportID).toBe(fresh.reportID);
    expect(report.answers).toEqual(mine.pages);
    expect(report.answers[0]!.name).toBe("Summary");
    const pages = derivePages(main.widgets);
    expect(report.answers.map((page) => page.name)).toEqual(pages.map((page) => page.name));
    expect(report.pagesCount).toBe(pages.length);
    const titles = new Map(main.widgets.map((widget) => [widget.id, widget.title]));
    for (const answer of report.answers.flatMap((page) => page.answers)) expect(answer.title).toBe(titles.get(answer.widgetID)!);
    const dates = report.answers.flatMap((page) => page.answers).filter((answer) => answer.type === "Date");
    expect(dates.length).toBeGreaterThan(0);
    for (const date of dates) expect(date.answer).toEqual([expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/)]);
  });

  test("allowed: attachments are listed with their download address, which staff can follow", async () => {
    const report = await detail(as.admin, fresh.id);
    expect(report.attachments.map((a) => [a.fileName, a.fileSizeBytes, a.mimeType.split(";")[0]])).toEqual([
      ["notes.txt", 10, "text/plain"],
      ["more.txt", 19, "text/plain"],
    ]);
    for (const attachment of report.attachments) expect(attachment.fileURL).toBe(`${ATTACHMENTS_PATH}/${attachment.id}`);
    expect(report.attachments).toEqual((await reporterView(fresh.reportID, fresh.password)).attachments);
    expect((await as.owner.fetch(report.attachments[0]!.fileURL)).status).toBe(200);
  });

  test("allowed: a member on the team reads a seeded report; only answered questions are listed", async () => {
    const report = await detail(as.member, demoAssigned.id);
    expect(report.internalReference).toBe("HR-2041");
    expect(report.answers).toEqual((await reporterView(demoAssigned.reportId!, DEMO_REPORT_PASSWORD)).pages);
    expect(report.answers[0]!.name).toBe("Summary");
    expect(report.answers.flatMap((page) => page.answers).every((answer) => answer.answer.length > 0)).toBe(true);
    expect(report.attachments).toEqual([]);
  });

  test("pages the reporter left unanswered are left out, but still counted in pagesCount", async () => {
    const pages = derivePages(main.widgets);
    const lastPage = pages.at(-1)!;
    await server.db.delete(reportSubmissionAnswers).where(and(eq(reportSubmissionAnswers.submissionId, demoRejected.id), eq(reportSubmissionAnswers.page, lastPage.index)));
    const report = await detail(as.admin, demoRejected.id);
    expect(report.answers.map((page) => page.name)).toEqual(pages.slice(0, -1).map((page) => page.name));
    expect(report.pagesCount).toBe(pages.length);
    expect(report.answers).toEqual((await reporterView(demoRejected.reportId!, DEMO_REPORT_PASSWORD)).pages);
  });

  test("denied: a member or guest not on the team, and the owner of another organisation, get not found", async () => {
    await expectNotFound(as.member, fresh.id);
    await expectNotFound(as.guest, demoAssigned.id);
    await expectNotFound(as.owner, northwindReport.id);
    await expectNotFound(as.admin, northwindReport.id);
  });

  test("a guest on the team reads it, without the internal reference", async () => {
    const [guest] = await server.db.select().from(users).where(eq(users.email, "guest@demo.test"));
    await server.db.insert(reportSubmissionAssignees).values({ submissionId: demoAssigned.id, userId: guest!.id });
    // Without two-factor authentication a guest is refused the report, and told why.
    const refused = await as.guest.gql(DETAIL, { id: demoAssigned.id });
    expect(refused.errors?.[0]?.message).toBe("2FA is required to manage report submissions from different organisations.");
    expect(refused.data?.reportSubmissionGet ?? null).toBeNull();
    await setTwoFactorActivated(server, "guest@demo.test", true);
    try {
      const report = await detail(as.guest, demoAssigned.id);
      expect(report.id).toBe(demoAssigned.id);
      expect(report.internalReference).toBeNull();
    } finally {
      await setTwoFactorActivated(server, "guest@demo.test", false);
    }
  });

  test("a super admin reads reports of every organisation, never with the internal reference", async () => {
    expect((await detail(as.superAdmin, northwindReport.id)).id).toBe(northwindReport.id);
    const report = await detail(as.superAdmin, demoAssigned.id);
    expect(report.internalReference).toBeNull();
    expect(report.answers.length).toBeGreaterThan(0);
  });

  test("denied: drafts, malformed and unknown ids are not found", async () => {
    await expectNotFound(as.owner, draftId);
    await expectNotFound(as.owner, "not-an-id");
    await expectNotFound(as.superAdmin, crypto.randomUUID());
  });

  test("denied: anonymous callers are unauthenticated; a reporter's session is forbidden", async () => {
    const result = await anonymous(server).gql(DETAIL, { id: fresh.id });
    expect(result.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    const reporter = new ReporterClient(server, "demo.localhost");
    await reporter.post("/api/auth/report_login", { reportID: fresh.reportID, password: fresh.password });
    const asReporter = await reporter.gql(DETAIL, { id: fresh.id });
    expect(asReporter.data).toBeNull();
    expect(asReporter.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });
});
