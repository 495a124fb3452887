import { expect } from "bun:test";
import { upload } from "../fixtures/attachments.ts";
import { postSolving, solveChallenge, type ChallengeBody } from "./proof-of-work.ts";
import { COMPLETE, demoForm, pagesOfAnswers, ReporterClient, UPDATE } from "./reporter.ts";
import type { TestServer } from "./server.ts";
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { organisations, reportSubmissionAnswers, reportSubmissionAttachments, reportSubmissions, users } from "../../db/schema/index.ts";
import { WORKPLACE_MISCONDUCT_FORM } from "../../db/seed/demo-forms.ts";
import { insertPublishedForm } from "../../db/seed/publish-form.ts";
import type { FormWidget } from "../../api/shared/form-definition.ts";

/**
 * Reporters with a Draft that only waits for its completion: every page answered and one file
 * attached, each with texts of its own, so what comes back after a fault can be told apart.
 */

export interface ReadyDraft {
  index: number;
  host: string;
  submissionId: string;
  reporter: ReporterClient;
  /** widget id → the answer sent. */
  answers: Record<string, string[]>;
  fileName: string;
  fileContent: string;
}

export interface Credentials {
  reportID: string;
  generatedPassword: string;
}

export type DemoMainForm = { formId: string; widgets: FormWidget[]; host: string };

export async function demoMainForm(db: Database): Promise<DemoMainForm> {
  const { form, widgets } = await demoForm({ db } as TestServer, "demo", "Workplace Misconduct Report");
  return { formId: form.id, widgets, host: "demo.localhost" };
}

/**
 * Public forms enough for `drafts` Drafts under the per-form cap (500): the demo's and Northwind's
 * own, and more copies of the demo's main form where those are not enough.
 */
export async function formsForDrafts(db: Database, drafts: number): Promise<DemoMainForm[]> {
  const northwind = await demoForm({ db } as TestServer, "northwind", "Safety and Compliance Report");
  const forms = [await demoMainForm(db), { formId: northwind.form.id, widgets: northwind.widgets, host: "northwind.localhost" }];
  const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, "owner@demo.test"));
  const [demo] = await db.select({ id: organisations.id }).from(organisations).where(eq(organisations.slug, "demo"));
  for (let copy = 1; forms.length * 400 < drafts; copy += 1) {
    const spec = { ...WORKPLACE_MISCONDUCT_FORM, name: `${WORKPLACE_MISCONDUCT_FORM.name} ${copy + 1}` };
    await insertPublishedForm(db, { organisationId: demo!.id, authorUserId: owner!.id, spec, createdAt: new Date() });
    const { form, widgets } = await demoForm({ db } as TestServer, "demo", spec.name);
    forms.push({ formId: form.id, widgets, host: "demo.localhost" });
  }
  return forms;
}

/** Runs `work` over `items`, `width` at a time. */
export async function inPool<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

/** `count` Drafts spread over the forms, made through the reporter's API (work paid where the load asks for it). */
export async function readyDrafts(server: TestServer, forms: DemoMainForm[], count: number, marker: string): Promise<ReadyDraft[]> {
  return inPool(
    Array.from({ length: count }, (_, index) => index),
    8,
    async (index) => {
      const form = forms[index % forms.length]!;
      const reporter = new ReporterClient(server, form.host);
      const { response } = await postSolving(
        (body) => reporter.fetch("/api/auth/report_start", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }),
        { reportFormID: form.formId },
      );
      const started = (await response.json()) as { submissionID?: string };
      if (response.status !== 200 || !started.submissionID) throw new Error(`report_start: ${response.status} ${JSON.stringify(started)}`);
      const fileName = `${marker}-statement-${index}.txt`;
      const fileContent = `Statement ${index} of ${marker}\n`;
      let attached = await upload(reporter, fileName, fileContent, "text/plain");
      // Many uploads at once fill the unpaid lane: the reporter's page solves the check and sends again (decision 060).
      if (attached.status === 428) attached = await upload(reporter, fileName, fileContent, "text/plain", solveChallenge((attached.body as { challenge: ChallengeBody }).challenge));
      if (attached.status !== 200) throw new Error(`upload: ${JSON.stringify(attached.body)}`);
      const pages = pagesOfAnswers(form.widgets, { w_summary: [`${marker} report ${index}`] });
      const answers: Record<string, string[]> = {};
      for (const [page, pageAnswers] of pages.entries()) {
        const saved = await reporter.gql<{ userReportSubmissionUpdate: { success: boolean } }>(UPDATE, { page, answers: pageAnswers });
        if (!saved.data?.userReportSubmissionUpdate.success) throw new Error(`page ${page}: ${JSON.stringify(saved)}`);
        for (const { widgetID, answer } of pageAnswers) answers[widgetID] = answer;
      }
      return { index, host: form.host, submissionId: started.submissionID, reporter, answers, fileName, fileContent };
    },
  );
}

/** One completion as the page sends it: the credentials if the server acknowledged it, else null (an error, a cut connection). */
export async function complete(draft: ReadyDraft): Promise<Credentials | null> {
  try {
    const response = await draft.reporter.fetch("/api/gql/query", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query: COMPLETE }) });
    if (response.status !== 200) return null;
    const body = (await response.json()) as { data?: { userReportSubmissionComplete?: Credentials } };
    const credentials = body.data?.userReportSubmissionComplete;
    return credentials?.reportID && credentials.generatedPassword ? credentials : null;
  } catch {
    return null;
  }
}

const SUBMISSION = `query { reporterSubmission { reportID completed pages { answers { widgetID answer } } attachments { fileName fileURL } } }`;

type ReadSubmission = {
  reporterSubmission: { reportID: string; completed: boolean; pages: { answers: { widgetID: string; answer: string[] }[] }[]; attachments: { fileName: string; fileURL: string }[] };
};

/** Signs in with the credentials, as the reporter would, and checks the report is whole: its answers, its file. */
export async function expectWholeReport(server: TestServer, draft: ReadyDraft, credentials: Credentials): Promise<void> {
  const follow = new ReporterClient(server, draft.host);
  const { response } = await postSolving(
    (body) => follow.fetch("/api/auth/report_login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }),
    { reportID: credentials.reportID, password: credentials.generatedPassword },
  );
  expect({ index: draft.index, login: response.status }).toEqual({ index: draft.index, login: 200 });
  const read = await follow.gql<ReadSubmission>(SUBMISSION);
  const submission = read.data?.reporterSubmission;
  const answers = Object.fromEntries((submission?.pages ?? []).flatMap((page) => page.answers).map((answer) => [answer.widgetID, answer.answer]));
  expect({ index: draft.index, reportID: submission?.reportID, completed: submission?.completed, answers }).toEqual({
    index: draft.index,
    reportID: credentials.reportID,
    completed: true,
    answers: draft.answers,
  });
  expect(submission!.attachments.map((file) => file.fileName)).toEqual([draft.fileName]);
  const download = await follow.fetch(submission!.attachments[0]!.fileURL);
  expect({ index: draft.index, status: download.status, content: await download.text() }).toEqual({ index: draft.index, status: 200, content: draft.fileContent });
}

/**
 * What staff could see, read from the tables: each acknowledged report once, with its ID, answers
 * and file; no completed row anywhere missing its ID, password, completion time or status.
 */
export async function expectNothingHalfWritten(db: Database, reports: { draft: ReadyDraft; credentials: Credentials }[]): Promise<void> {
  const rows = await db
    .select({
      id: reportSubmissions.id,
      reportId: reportSubmissions.reportId,
      completed: reportSubmissions.completed,
      status: reportSubmissions.status,
      answers: sql<number>`(select count(*)::int from ${reportSubmissionAnswers} where ${reportSubmissionAnswers.submissionId} = ${reportSubmissions.id})`,
      files: sql<number>`(select count(*)::int from ${reportSubmissionAttachments} where ${reportSubmissionAttachments.submissionId} = ${reportSubmissions.id})`,
    })
    .from(reportSubmissions)
    .where(inArray(reportSubmissions.id, reports.map(({ draft }) => draft.submissionId)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const { draft, credentials } of reports) {
    const row = byId.get(draft.submissionId);
    expect({ submission: draft.submissionId, reportId: row?.reportId, completed: row?.completed, answers: row?.answers, files: row?.files }).toEqual({
      submission: draft.submissionId,
      reportId: credentials.reportID,
      completed: true,
      answers: Object.keys(draft.answers).length,
      files: 1,
    });
    expect(row?.status).not.toBe("Draft");
  }
  const halfWritten = await db
    .select({ id: reportSubmissions.id })
    .from(reportSubmissions)
    .where(and(eq(reportSubmissions.completed, true), or(isNull(reportSubmissions.reportId), isNull(reportSubmissions.passwordHash), isNull(reportSubmissions.completedAt), eq(reportSubmissions.status, "Draft"))));
  expect(halfWritten).toEqual([]);
}
