import { and, desc, eq } from "drizzle-orm";
import { reportConversationMessages, reportSubmissionAnswers, reportSubmissions, userActivities } from "../../../db/schema/index.ts";
import { startDemoWithStaff } from "../../helpers/demo.ts";
import { openedText } from "../../helpers/opened-answers.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import type { TestServer } from "../../helpers/server.ts";
import { joinTeam, type DemoStaff, type StaffClient } from "../../helpers/session.ts";

/**
 * A report on Demo's main form whose summary and first chat message name someone, typed through
 * the reporter's own API, so every test redacts what a real reporter wrote.
 */

/** The summary: a name to redact, and a character outside the BMP (a surrogate pair) to split. */
export const SUMMARY = "Ada Quill took 😀 cash from the till";
export const NAME = "Ada Quill";
export const EMOJI_AT = SUMMARY.indexOf("😀");
export const MESSAGE = "Please do not tell Bo Tander from stores that I wrote";
export const MESSAGE_NAME = "Bo Tander";

export const REDACT_ANSWER = `mutation ($id: ID!, $w: String!, $i: Int!, $s: Int!, $e: Int!) { reportSubmissionAnswerRedact(id: $id, widgetID: $w, index: $i, start: $s, end: $e) { id } }`;
export const REDACT_MESSAGE = `mutation ($id: ID!, $s: Int!, $e: Int!) { reportConversationMessageRedact(id: $id, start: $s, end: $e) { id type message } }`;
export const SEND = `mutation ($id: ID, $text: String!) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $text }) { id } }`;
export const CHAT = `query ($id: ID) { reportConversationMessages(reportSubmissionID: $id, last: 50) { messages { id message } } }`;
export const REPORTER_VIEW = `{ reporterSubmission { pages { answers { widgetID answer } } } }`;

export type Answer<T = any> = { data?: T | null; errors?: { message: string; extensions?: { code?: string } }[] };

export interface RedactionFixture {
  server: TestServer;
  as: DemoStaff;
  northwind: StaffClient;
  reporter: ReporterClient;
  demoId: string;
  submissionId: string;
  reportID: string;
  messageId: string;
}

export async function startRedactionFixture(): Promise<RedactionFixture> {
  const { server, as, northwind, demoId } = await startDemoWithStaff();
  const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
  const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets, { w_summary: [SUMMARY] });
  const reporter = new ReporterClient(server, "demo.localhost");
  await reporter.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword });
  const [submission] = await server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
  const sent = await reporter.gql<{ reportConversationSendMessage: { id: string } }>(SEND, { text: MESSAGE });
  if (!sent.data) throw new Error(`send: ${JSON.stringify(sent)}`);
  await joinTeam(as.owner, submission!.id);
  return { server, as, northwind, reporter, demoId, submissionId: submission!.id, reportID: credentials.reportID, messageId: sent.data.reportConversationSendMessage.id };
}

/** The summary's first text as stored, and opened. */
export async function storedSummary(fx: RedactionFixture): Promise<{ stored: string; opened: string }> {
  const [row] = await fx.server.db
    .select({ answer: reportSubmissionAnswers.answer })
    .from(reportSubmissionAnswers)
    .where(and(eq(reportSubmissionAnswers.submissionId, fx.submissionId), eq(reportSubmissionAnswers.widgetId, "w_summary")));
  const stored = row!.answer[0]!;
  return { stored, opened: await openedText(fx.server, fx.demoId, "answer", stored) };
}

export async function storedMessage(fx: RedactionFixture, id = fx.messageId): Promise<{ stored: string; opened: string }> {
  const [row] = await fx.server.db.select({ message: reportConversationMessages.message }).from(reportConversationMessages).where(eq(reportConversationMessages.id, id));
  return { stored: row!.message, opened: await openedText(fx.server, fx.demoId, "message", row!.message) };
}

/** The report's audit entries of one action, newest first. */
export const entriesOf = (fx: RedactionFixture, action: string) =>
  fx.server.db
    .select()
    .from(userActivities)
    .where(and(eq(userActivities.objectId, fx.submissionId), eq(userActivities.action, action)))
    .orderBy(desc(userActivities.createdAt));
