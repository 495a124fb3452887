import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { organisations, reportForms, reportSubmissionAnswers, reportSubmissions, reporterSessions } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_FORM_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { solveChallenge, type ChallengeBody } from "../../helpers/proof-of-work.ts";
import { COMPLETE, demoForm, pagesOfAnswers, ReporterClient, submitReport, UPDATE } from "../../helpers/reporter.ts";

let server: TestServer;
let main: Awaited<ReturnType<typeof demoForm>>;
let secured: Awaited<ReturnType<typeof demoForm>>;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  main = await demoForm(server, "demo", "Workplace Misconduct Report");
  secured = await demoForm(server, "demo", "Confidential Finance Concern");
});
afterAll(() => server.stop());

const FORM = `query ($id: ID!) { reportSubmissionForm(reportFormID: $id) { id name secured unlocked widgets { id type } } }`;
const UNLOCK = `mutation ($id: ID!, $password: String!) { reportFormUnlock(reportFormID: $id, password: $password) }`;
const SUBMISSION = `{ reporterSubmission { id reportID completed completedAt formName pages { name answers { widgetID answer } } } }`;

describe("loading a form", () => {
  test("a form that is not Custom (the enquiry form) sends the reporter to /organisation/{id}, the organisation page", async () => {
    const slugId = async (slug: string) => (await server.db.select({ id: organisations.id }).from(organisations).where(eq(organisations.slug, slug)))[0]!.id;
    const demoId = await slugId("demo");
    const [enquiry] = await server.db.insert(reportForms).values({ organisationId: demoId, name: "General Enquiry", type: "Enquiry", status: "Active", hasChat: true }).returning({ id: reportForms.id });
    const reporter = new ReporterClient(server, "demo.localhost");
    const redirected = await reporter.fetch(`/report/${enquiry!.id}`, { redirect: "manual" });
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get("location")).toBe(`/organisation/${demoId}`);
    const page = await reporter.fetch(`/organisation/${demoId}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Login to follow up");
    // Another organisation's page is not reachable through this host, and another host's form does not redirect.
    expect((await reporter.fetch(`/organisation/${await slugId("northwind")}`)).status).toBe(404);
    expect((await new ReporterClient(server, "northwind.localhost").fetch(`/report/${enquiry!.id}`, { redirect: "manual" })).status).toBe(404);
  });

  test("on its organisation's host, with its widgets; on another organisation's host it does not exist", async () => {
    const own = await new ReporterClient(server, "demo.localhost").gql<{ reportSubmissionForm: { name: string; widgets: unknown[] } }>(FORM, { id: main.form.id });
    expect(own.data?.reportSubmissionForm.name).toBe("Workplace Misconduct Report");
    expect(own.data?.reportSubmissionForm.widgets.length).toBe(main.widgets.length);
    const other = await new ReporterClient(server, "northwind.localhost").gql(FORM, { id: main.form.id });
    expect(other.errors?.[0]?.message).toBe("Report Form was not found or not longer exists.");
    const malformed = await new ReporterClient(server, "demo.localhost").gql(FORM, { id: "nope" });
    expect(malformed.errors?.[0]?.message).toBe("Report Form was not found or not longer exists.");
  });

  test("the form page carries the form in its HTML; an unknown form shows the spec's message", async () => {
    const page = await new ReporterClient(server, "demo.localhost").fetch(`/report/${main.form.id}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Workplace Misconduct Report");
    const missing = await new ReporterClient(server, "demo.localhost").fetch(`/report/summary/00000000-0000-0000-0000-000000000000`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("Report Form was not found or not longer exists.");
  });

  test("a secured form shows no questions until unlocked; a wrong password is refused", async () => {
    const reporter = new ReporterClient(server, "demo.localhost");
    const locked = await reporter.gql<{ reportSubmissionForm: { secured: boolean; unlocked: boolean; widgets: unknown[] } }>(FORM, { id: secured.form.id });
    expect(locked.data?.reportSubmissionForm).toMatchObject({ secured: true, unlocked: false, widgets: [] });
    expect((await reporter.post("/api/auth/report_start", { reportFormID: secured.form.id })).status).toBe(403);
    expect((await reporter.gql<{ reportFormUnlock: boolean }>(UNLOCK, { id: secured.form.id, password: "wrong" })).data?.reportFormUnlock).toBe(false);
    expect((await reporter.gql<{ reportFormUnlock: boolean }>(UNLOCK, { id: secured.form.id, password: DEMO_FORM_PASSWORD })).data?.reportFormUnlock).toBe(true);
    const open = await reporter.gql<{ reportSubmissionForm: { unlocked: boolean; widgets: unknown[] } }>(FORM, { id: secured.form.id });
    expect(open.data?.reportSubmissionForm.unlocked).toBe(true);
    expect(open.data?.reportSubmissionForm.widgets.length).toBeGreaterThan(0);
    const done = await submitReport(reporter, secured.form.id, secured.widgets);
    expect(done.reportID).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
  });
});

describe("filling in a report", () => {
  test("the server checks each page: required answers, real options, known widgets", async () => {
    const reporter = new ReporterClient(server, "demo.localhost");
    expect((await reporter.post("/api/auth/report_start", { reportFormID: main.form.id })).status).toBe(200);
    expect(reporter.cookie).toContain("lantern_report=");
    const missing = await reporter.gql<{ userReportSubmissionUpdate: { success: boolean; errors: { field: string; message: string }[] } }>(UPDATE, { page: 0, answers: [] });
    expect(missing.data?.userReportSubmissionUpdate.success).toBe(false);
    expect(missing.data?.userReportSubmissionUpdate.errors[0]?.message).toBe("Required");

    const choice = main.widgets.find((w) => w.type === "Radio" || w.type === "Select")!;
    const page = pagesOfAnswers(main.widgets).findIndex((answers) => answers.some((a) => a.widgetID === choice.id));
    const bad = await reporter.gql<{ userReportSubmissionUpdate: { errors: { field: string; message: string }[] } }>(UPDATE, { page, answers: [{ widgetID: choice.id, answer: ["Not an option"] }] });
    expect(bad.data?.userReportSubmissionUpdate.errors).toContainEqual({ field: choice.id, message: "Choose one of the options" });
    const unknown = await reporter.gql<{ userReportSubmissionUpdate: { errors: { field: string; message: string }[] } }>(UPDATE, { page: 0, answers: [{ widgetID: "w_not_there", answer: ["x"] }] });
    expect(unknown.data?.userReportSubmissionUpdate.errors[0]).toEqual({ field: "w_not_there", message: "This question is not on this page of the form" });
  });

  test("answers to hidden questions are dropped; completion gives a report ID and a strong password", async () => {
    const guarded = main.widgets.find((w) => w.condition?.matchType === "All")!;
    const rule = guarded.condition!.rules[0]!;
    const source = main.widgets.find((w) => w.id === rule.conditionWidgetID)!;
    const other = source.answers.find((answer) => answer !== rule.conditionAnswer)!;
    const reporter = new ReporterClient(server, "demo.localhost");
    const pages = pagesOfAnswers(main.widgets, { [source.id]: [other] });
    await reporter.post("/api/auth/report_start", { reportFormID: main.form.id });
    for (const [page, answers] of pages.entries()) {
      const withHidden = answers.some((a) => a.widgetID === source.id) ? [...answers] : answers;
      const guardedPage = pagesOfAnswers(main.widgets, { [source.id]: [rule.conditionAnswer] }).findIndex((a) => a.some((x) => x.widgetID === guarded.id));
      if (page === guardedPage) withHidden.push({ widgetID: guarded.id, answer: ["Should not be kept"] });
      const result = await reporter.gql<{ userReportSubmissionUpdate: { success: boolean } }>(UPDATE, { page, answers: withHidden });
      expect(result.data?.userReportSubmissionUpdate.success).toBe(true);
    }
    const done = await reporter.gql<{ userReportSubmissionComplete: { reportID: string; generatedPassword: string } }>(COMPLETE);
    const { reportID, generatedPassword } = done.data!.userReportSubmissionComplete;
    expect(generatedPassword).toMatch(/^([0-9A-HJKMNP-TV-Z]{5}-){3}[0-9A-HJKMNP-TV-Z]{5}$/);
    const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, reportID));
    expect(row).toMatchObject({ status: "New", completed: true });
    expect(row!.passwordHash).toStartWith("$hmac-sha256$v=1$");
    expect(row!.passwordHash).not.toContain(generatedPassword);
    const stored = await server.db.select().from(reportSubmissionAnswers).where(eq(reportSubmissionAnswers.submissionId, row!.id));
    expect(stored.map((a) => a.widgetId)).not.toContain(guarded.id);
  });

  test("completing twice makes one report; the second answer re-issues the password", async () => {
    const reporter = new ReporterClient(server, "demo.localhost");
    const first = await submitReport(reporter, main.form.id, main.widgets);
    const second = (await reporter.gql<{ userReportSubmissionComplete: { reportID: string; generatedPassword: string } }>(COMPLETE)).data!.userReportSubmissionComplete;
    expect(second.reportID).toBe(first.reportID);
    expect(second.generatedPassword).not.toBe(first.generatedPassword);
    expect(await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, first.reportID))).toHaveLength(1);
    const login = new ReporterClient(server, "demo.localhost");
    expect((await login.post("/api/auth/report_login", { reportID: first.reportID, password: first.generatedPassword })).status).toBe(401);
    expect((await login.post("/api/auth/report_login", { reportID: first.reportID, password: second.generatedPassword })).status).toBe(200);
  });
});

describe("following up", () => {
  test("login opens only that report; typing the ID loosely still works; another organisation's host refuses it", async () => {
    const { reportID, generatedPassword } = await submitReport(new ReporterClient(server, "demo.localhost"), main.form.id, main.widgets);
    const reporter = new ReporterClient(server, "demo.localhost");
    const login = await reporter.post<{ organisationSlug: string }>("/api/auth/report_login", { reportID: ` ${reportID.toLowerCase().replace("-", "")} `, password: generatedPassword.toLowerCase() });
    expect(login.status).toBe(200);
    expect(login.body.organisationSlug).toBe("demo");
    const mine = await reporter.gql<{ reporterSubmission: { reportID: string; pages: { answers: unknown[] }[] } }>(SUBMISSION);
    expect(mine.data?.reporterSubmission.reportID).toBe(reportID);
    expect(mine.data?.reporterSubmission.pages.length).toBeGreaterThanOrEqual(3);

    const elsewhere = new ReporterClient(server, "northwind.localhost");
    const refused = await elsewhere.post<{ error: string }>("/api/auth/report_login", { reportID, password: generatedPassword });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe("Report ID or password is incorrect.");
    // The demo session's cookie means nothing on Northwind's host.
    elsewhere.cookie = reporter.cookie;
    expect((await elsewhere.gql<{ reporterSubmission: unknown }>(SUBMISSION)).data?.reporterSubmission).toBeNull();
  });

  test("wrong passwords past the first few must each solve a challenge; the right password with one still gets in", async () => {
    const { reportID, generatedPassword } = await submitReport(new ReporterClient(server, "demo.localhost"), main.form.id, main.widgets);
    const guesser = new ReporterClient(server, "demo.localhost");
    for (let i = 0; i < 3; i += 1) expect((await guesser.post("/api/auth/report_login", { reportID, password: "AAAAA-AAAAA-AAAAA-AAAAA" })).status).toBe(401);
    const asked = await guesser.post<{ code: string; challenge: ChallengeBody }>("/api/auth/report_login", { reportID, password: generatedPassword });
    expect(asked.status).toBe(428);
    expect(asked.body.code).toBe("CHALLENGE_REQUIRED");
    const solved = await guesser.post("/api/auth/report_login", { reportID, password: generatedPassword, verifyToken: solveChallenge(asked.body.challenge) });
    expect(solved.status).toBe(200);
  });

  test("the global login hands over to the organisation's host once", async () => {
    const { reportID, generatedPassword } = await submitReport(new ReporterClient(server, "demo.localhost"), main.form.id, main.widgets);
    const global = new ReporterClient(server, "login.localhost");
    const login = await global.post<{ organisationSlug: string; handoff: string }>("/api/auth/report_login", { reportID, password: generatedPassword });
    expect(login.status).toBe(200);
    expect(login.body.organisationSlug).toBe("demo");
    expect(global.cookie).toBe("");
    expect((await new ReporterClient(server, "northwind.localhost").post("/api/auth/report_handoff", { handoff: login.body.handoff })).status).toBe(401);
    const demo = new ReporterClient(server, "demo.localhost");
    expect((await demo.post("/api/auth/report_handoff", { handoff: login.body.handoff })).status).toBe(200);
    expect((await demo.gql<{ reporterSubmission: { reportID: string } }>(SUBMISSION)).data?.reporterSubmission.reportID).toBe(reportID);
    expect((await new ReporterClient(server, "demo.localhost").post("/api/auth/report_handoff", { handoff: login.body.handoff })).status).toBe(401);
  });

  test("changing the password, and leaving", async () => {
    const { reportID, generatedPassword } = await submitReport(new ReporterClient(server, "demo.localhost"), main.form.id, main.widgets);
    const reporter = new ReporterClient(server, "demo.localhost");
    await reporter.post("/api/auth/report_login", { reportID, password: generatedPassword });
    const CHANGE = `mutation ($old: String!, $new: String!) { userReportSubmissionChangePassword(oldPassword: $old, newPassword: $new) }`;
    expect((await reporter.gql(CHANGE, { old: generatedPassword, new: "short" })).errors?.[0]?.message).toBe("Password must contain at least 8 characters");
    expect((await reporter.gql(CHANGE, { old: "wrong-old-1", new: "my-own-secret-9" })).errors?.[0]?.message).toBe("The old password is incorrect.");
    expect((await reporter.gql<{ userReportSubmissionChangePassword: boolean }>(CHANGE, { old: generatedPassword, new: "my-own-secret-9" })).data?.userReportSubmissionChangePassword).toBe(true);

    expect((await reporter.post<{ ok: boolean }>("/api/auth/report_finish", {})).body.ok).toBe(false);
    // Text that is not a form id is no form id either: the guard does nothing.
    expect((await reporter.post<{ ok: boolean }>("/api/auth/report_finish", { reportFormID: "anything at all" })).body.ok).toBe(false);
    expect((await reporter.gql<{ reporterSubmission: unknown }>(SUBMISSION)).data?.reporterSubmission).not.toBeNull();
    expect((await reporter.post<{ ok: boolean }>("/api/auth/report_finish", { reportFormID: main.form.id })).body.ok).toBe(true);
    expect((await reporter.gql<{ reporterSubmission: unknown }>(SUBMISSION)).data?.reporterSubmission).toBeNull();

    const again = new ReporterClient(server, "demo.localhost");
    expect((await again.post("/api/auth/report_login", { reportID, password: "my-own-secret-9" })).status).toBe(200);
  });
});

describe("anonymity", () => {
  test("no address or user agent is written anywhere in the database", async () => {
    const device = { "User-Agent": "Reporter-Device-7f3a", "X-Forwarded-For": "198.51.100.23", "X-Real-IP": "198.51.100.23" };
    const reporter = new ReporterClient(server, "demo.localhost", device);
    const { reportID, generatedPassword } = await submitReport(reporter, main.form.id, main.widgets);
    await new ReporterClient(server, "demo.localhost", device).post("/api/auth/report_login", { reportID, password: generatedPassword });
    const tables = await server.db.execute<{ table_name: string }>(sql.raw(`select table_name from information_schema.tables where table_schema = 'public'`));
    const names = rowsOf<{ table_name: string }>(tables).map((row) => row.table_name);
    expect(names).toContain("reporter_sessions");
    for (const name of names) {
      const dump = await server.db.execute(sql.raw(`select coalesce(json_agg(t)::text, '') as dump from "${name}" t`));
      const text = JSON.stringify(dump);
      expect(text).not.toContain("Reporter-Device-7f3a");
      expect(text).not.toContain("198.51.100.23");
      expect(text).not.toContain("127.0.0.1");
    }
    expect(await server.db.select().from(reporterSessions)).not.toHaveLength(0);
  });
});

/** PGlite answers `{ rows }`, postgres.js an array of rows. */
function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows;
}
