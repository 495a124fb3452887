import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { reportForms, reportSubmissions } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_FORM_PASSWORD, DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import type { FormWidget } from "../../../api/shared/form-definition.ts";
import { insertBuild } from "../../helpers/form-builds.ts";
import { COMPLETE, demoForm, pagesOfAnswers, ReporterClient, UPDATE } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { loginAs, type StaffClient } from "../../helpers/session.ts";

// Every save of a form is a new build; a publish points the form's deployed build at one. These
// tests write builds straight into the database, as the console's mutations would, and check what
// reporters and staff read of them.

const FORM = `query ($id: ID!) { reportSubmissionForm(reportFormID: $id) { buildID unlocked widgets { id title } } }`;
const UNLOCK = `mutation ($id: ID!, $password: String!) { reportFormUnlock(reportFormID: $id, password: $password) }`;
const DETAIL = `query ($id: ID!) { reportSubmissionGet(id: $id) { answers { name answers { widgetID title answer } } } }`;
const REPORTER_VIEW = `{ reporterSubmission { pages { name answers { widgetID title answer } } } }`;

type FormAnswer = { reportSubmissionForm: { buildID: string; unlocked: boolean; widgets: { id: string; title: string }[] } };
type Pages = { name: string; answers: { widgetID: string; title: string; answer: string[] }[] }[];

let server: TestServer;
let owner: StaffClient;
let main: Awaited<ReturnType<typeof demoForm>>;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  owner = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
  main = await demoForm(server, "demo", "Workplace Misconduct Report");
});
afterAll(() => server.stop());

const titlesOf = (widgets: readonly { title: string }[]) => widgets.map((widget) => widget.title);

async function formAs(reporter: ReporterClient, formId: string) {
  const answer = await reporter.gql<FormAnswer>(FORM, { id: formId });
  if (!answer.data) throw new Error(JSON.stringify(answer.errors));
  return answer.data.reportSubmissionForm;
}

/** Fills every page of the session's Draft with answers to `widgets`; answers each page's result. */
async function fillPages(reporter: ReporterClient, widgets: FormWidget[]) {
  const results = [];
  for (const [page, answers] of pagesOfAnswers(widgets).entries()) {
    results.push((await reporter.gql<{ userReportSubmissionUpdate: { success: boolean; errors: unknown[] } }>(UPDATE, { page, answers })).data?.userReportSubmissionUpdate);
  }
  return results;
}

describe("reporters get the deployed build only", () => {
  test("a saved but unpublished edit is not what a reporter sees, in the API or in the page", async () => {
    const draftEdit = await insertBuild(server, main.form.id, main.widgets, "Unpublished: ", false);
    const form = await formAs(new ReporterClient(server, "demo.localhost"), main.form.id);
    expect(form.buildID).toBe(main.form.deployedBuildId!);
    expect(titlesOf(form.widgets)).toEqual(titlesOf(main.widgets));
    const page = await (await new ReporterClient(server, "demo.localhost").fetch(`/report/${main.form.id}`)).text();
    expect(page).toContain(main.widgets[1]!.title);
    expect(page).not.toContain("Unpublished: ");
    expect(page).not.toContain(draftEdit.id);
  });
});

describe("a report keeps the build it began on", () => {
  test("a publish mid-report changes nothing for it; staff and reporter read its answers against the questions asked", async () => {
    await server.db.update(reportForms).set({ deployedBuildId: main.form.deployedBuildId }).where(eq(reportForms.id, main.form.id));
    const reporter = new ReporterClient(server, "demo.localhost");
    const started = await reporter.post<{ submissionID: string; buildID: string }>("/api/auth/report_start", { reportFormID: main.form.id });
    expect(started.body.buildID).toBe(main.form.deployedBuildId!);

    const revised = await insertBuild(server, main.form.id, main.widgets, "Revised: ", true);
    // Newcomers get the new build; the reporter half-way through still sees the questions they began with.
    expect((await formAs(new ReporterClient(server, "demo.localhost"), main.form.id)).buildID).toBe(revised.id);
    const mine = await formAs(reporter, main.form.id);
    expect(mine.buildID).toBe(main.form.deployedBuildId!);
    expect(titlesOf(mine.widgets)).toEqual(titlesOf(main.widgets));

    // The question added later is not asked of them: every page of the old build is accepted as it was.
    expect((await fillPages(reporter, main.widgets)).every((result) => result?.success === true)).toBe(true);
    const done = await reporter.gql<{ userReportSubmissionComplete: { reportID: string; generatedPassword: string } }>(COMPLETE);
    expect(done.errors).toBeUndefined();
    const credentials = done.data!.userReportSubmissionComplete;
    const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
    expect(row!.buildId).toBe(main.form.deployedBuildId!);

    // A later edit, published too: what was asked stays what is shown.
    await insertBuild(server, main.form.id, revised.widgets, "Later: ", true);
    const askedTitles = new Map(main.widgets.map((widget) => [widget.id, widget.title]));
    const staff = await owner.gql<{ reportSubmissionGet: { answers: Pages } }>(DETAIL, { id: row!.id });
    expect(staff.errors).toBeUndefined();
    const staffAnswers = staff.data!.reportSubmissionGet.answers.flatMap((page) => page.answers);
    expect(staffAnswers.length).toBeGreaterThan(0);
    for (const answer of staffAnswers) expect(answer.title).toBe(askedTitles.get(answer.widgetID)!);

    const follower = new ReporterClient(server, "demo.localhost");
    expect((await follower.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword })).status).toBe(200);
    const followed = await follower.gql<{ reporterSubmission: { pages: Pages } }>(REPORTER_VIEW);
    expect(followed.data!.reporterSubmission.pages).toEqual(staff.data!.reportSubmissionGet.answers);
  });

  test("a page opened before a publish learns, on starting, that the report is made on the new build", async () => {
    const reporter = new ReporterClient(server, "demo.localhost");
    const opened = await formAs(reporter, main.form.id);
    const republished = await insertBuild(server, main.form.id, main.widgets, "Republished: ", true);
    const started = await reporter.post<{ buildID: string }>("/api/auth/report_start", { reportFormID: main.form.id });
    expect(started.body.buildID).toBe(republished.id);
    expect(started.body.buildID).not.toBe(opened.buildID);
    const reloaded = await formAs(reporter, main.form.id);
    expect(reloaded.buildID).toBe(republished.id);
    expect(titlesOf(reloaded.widgets)).toEqual(titlesOf(republished.widgets));
    // The new build's required question is asked: the old pages alone are refused.
    const [firstPage] = await fillPages(reporter, main.widgets);
    expect(firstPage?.success).toBe(false);
  });

  test("a session's report on one form never decides the build of another form", async () => {
    const secured = await demoForm(server, "demo", "Confidential Finance Concern");
    const reporter = new ReporterClient(server, "demo.localhost");
    await reporter.post("/api/auth/report_start", { reportFormID: main.form.id });
    expect((await reporter.gql<{ reportFormUnlock: boolean }>(UNLOCK, { id: secured.form.id, password: DEMO_FORM_PASSWORD })).data?.reportFormUnlock).toBe(true);
    const other = await formAs(reporter, secured.form.id);
    expect(other.buildID).toBe(secured.form.deployedBuildId!);
    expect(titlesOf(other.widgets)).toEqual(titlesOf(secured.widgets));
  });
});

describe("a secured form after a new publish", () => {
  test("still shows no questions until its password is given; a wrong one opens nothing", async () => {
    const secured = await demoForm(server, "demo", "Confidential Finance Concern");
    const revised = await insertBuild(server, secured.form.id, secured.widgets, "Revised: ", true);
    const reporter = new ReporterClient(server, "demo.localhost");
    expect((await formAs(reporter, secured.form.id)).widgets).toEqual([]);
    expect((await reporter.gql<{ reportFormUnlock: boolean }>(UNLOCK, { id: secured.form.id, password: "not-it" })).data?.reportFormUnlock).toBe(false);
    expect((await formAs(reporter, secured.form.id)).unlocked).toBe(false);
    expect((await reporter.post("/api/auth/report_start", { reportFormID: secured.form.id })).status).toBe(403);
    expect((await reporter.gql<{ reportFormUnlock: boolean }>(UNLOCK, { id: secured.form.id, password: DEMO_FORM_PASSWORD })).data?.reportFormUnlock).toBe(true);
    expect(titlesOf((await formAs(reporter, secured.form.id)).widgets)).toEqual(titlesOf(revised.widgets));
  });
});
