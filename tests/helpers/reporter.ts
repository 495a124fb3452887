import { and, eq } from "drizzle-orm";
import { organisations, reportForms } from "../../db/schema/index.ts";
import { buildWidgets } from "../../api/modules/reporting/forms.ts";
import { derivePages, visibleWidgetIds, type FormWidget } from "../../api/shared/form-definition.ts";
import { afterAll, beforeAll } from "bun:test";
import { seedDemo } from "../../db/seed/demo.ts";
import { startTestServer, type TestServer } from "./server.ts";
import { cookieFrom } from "./session.ts";

/** A reporter's browser on one organisation's host, reduced to its cookie. */
export class ReporterClient {
  cookie = "";
  constructor(
    readonly server: TestServer,
    readonly host: string,
    readonly headers: Record<string, string> = {},
  ) {}

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    for (const [key, value] of Object.entries(this.headers)) headers.set(key, value);
    if (this.cookie) headers.set("Cookie", this.cookie);
    const response = await this.server.fetch(path, { ...init, headers, host: this.host });
    const token = cookieFrom(response, "lantern_report");
    if (token !== null) this.cookie = token ? `lantern_report=${token}` : "";
    return response;
  }

  async post<T = Record<string, unknown>>(path: string, body: unknown): Promise<{ status: number; body: T }> {
    const response = await this.fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as T };
  }

  async gql<T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}) {
    const { body } = await this.post<{ data?: T; errors?: { message: string; extensions?: { code?: string; fields?: { field: string; message: string }[] } }[] }>("/api/gql/query", { query, variables });
    return body;
  }
}

/** The same reporter's cookie, sent to another instance (tests of promises across instances). */
export function sameReporterOn(server: TestServer, reporter: ReporterClient): ReporterClient {
  const elsewhere = new ReporterClient(server, reporter.host);
  elsewhere.cookie = reporter.cookie;
  return elsewhere;
}

export async function demoForm(server: TestServer, slug: string, name: string) {
  const [row] = await server.db
    .select({ form: reportForms })
    .from(reportForms)
    .innerJoin(organisations, eq(organisations.id, reportForms.organisationId))
    .where(and(eq(organisations.slug, slug), eq(reportForms.name, name)));
  if (!row) throw new Error(`no form ${name} in ${slug}`);
  return { form: row.form, widgets: await buildWidgets(server.db, row.form.deployedBuildId!) };
}

/** A plausible answer for each widget, choosing `choices[widgetId]` where given. */
export function answerFor(widget: FormWidget, choices: Record<string, string[]> = {}): string[] {
  if (choices[widget.id]) return choices[widget.id]!;
  switch (widget.type) {
    case "Select":
    case "Radio":
    case "Checkbox":
      return [widget.answers[0]!];
    case "Date":
      return ["2026-03-14"];
    default:
      return [`Answer to ${widget.title}`];
  }
}

/** Answers page by page, as the flow sends them, for the widgets visible given the earlier answers. */
export function pagesOfAnswers(widgets: FormWidget[], choices: Record<string, string[]> = {}) {
  const all: Record<string, string[]> = {};
  for (const widget of widgets) if (widget.type !== "Section" && widget.type !== "Note") all[widget.id] = answerFor(widget, choices);
  const visible = visibleWidgetIds(widgets, all);
  return derivePages(widgets).map((page) =>
    page.widgets.filter((widget) => visible.has(widget.id) && all[widget.id]).map((widget) => ({ widgetID: widget.id, answer: all[widget.id]! })),
  );
}

export const UPDATE = `mutation ($page: Int!, $answers: [ReportAnswerInput!]!, $attachments: [ID!]) { userReportSubmissionUpdate(page: $page, answers: $answers, attachments: $attachments) { success errors { field message } } }`;
export const COMPLETE = `mutation { userReportSubmissionComplete { reportID generatedPassword } }`;

/** Start, fill every page and complete: returns the credentials. */
export async function submitReport(reporter: ReporterClient, formId: string, widgets: FormWidget[], choices: Record<string, string[]> = {}) {
  const started = await reporter.post("/api/auth/report_start", { reportFormID: formId });
  if (started.status !== 200) throw new Error(`report_start: ${JSON.stringify(started.body)}`);
  const pages = pagesOfAnswers(widgets, choices);
  for (const [page, answers] of pages.entries()) {
    const result = await reporter.gql<{ userReportSubmissionUpdate: { success: boolean; errors: unknown[] } }>(UPDATE, { page, answers });
    if (!result.data?.userReportSubmissionUpdate.success) throw new Error(`page ${page}: ${JSON.stringify(result)}`);
  }
  const done = await reporter.gql<{ userReportSubmissionComplete: { reportID: string; generatedPassword: string } }>(COMPLETE);
  if (!done.data) throw new Error(`complete: ${JSON.stringify(done)}`);
  return done.data.userReportSubmissionComplete;
}

/**
 * A server with the demo data for this test file and the demo's main form: started before its
 * tests, stopped after. Read `server` and `main` inside tests, once they are set.
 */
export function demoReportServer(): { readonly server: TestServer; readonly main: Awaited<ReturnType<typeof demoForm>>; readonly demoId: string } {
  const state = {} as { server: TestServer; main: Awaited<ReturnType<typeof demoForm>>; demoId: string };
  beforeAll(async () => {
    state.server = await startTestServer();
    await seedDemo(state.server.db);
    state.main = await demoForm(state.server, "demo", "Workplace Misconduct Report");
    state.demoId = state.main.form.organisationId;
  });
  afterAll(() => state.server.stop());
  return state;
}
