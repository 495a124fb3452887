import { expect } from "bun:test";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { upload } from "../fixtures/attachments.ts";
import { sendImage } from "../fixtures/chat-images.ts";
import { demoForm, ReporterClient, submitReport } from "./reporter.ts";
import type { TestServer } from "./server.ts";
import { joinTeam, loginAs, type StaffClient } from "./session.ts";

/**
 * A reporter's journey through the real APIs, each text carrying `marker`: a report with it in an
 * answer and an attached file (in its name and content), a chat message and an SVG chat image with
 * it; the demo owner's reply and note with it. The demo must be seeded.
 */

export const SEND = `mutation ($id: ID, $text: String!) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $text }) { id } }`;
export const NOTE = `mutation ($id: ID!, $note: String!) { reportSubmissionNoteCreate(reportSubmissionID: $id, note: $note) { id } }`;
export const DETAIL = `query ($id: ID!) { reportSubmissionGet(id: $id) { answers { answers { widgetID answer } } attachments { fileName fileSizeBytes fileURL } } }`;
export const MESSAGES = `query ($id: ID) { reportConversationMessages(reportSubmissionID: $id, last: 50) { messages { type message from image { fileURL } } } }`;
export const NOTES = `query ($id: ID!) { reportSubmissionNotes(reportSubmissionID: $id) { list { note } } }`;

export interface Detail {
  answers: { answers: { widgetID: string; answer: string[] }[] }[];
  attachments: { fileName: string; fileSizeBytes: number; fileURL: string }[];
}

export interface Journey {
  submissionId: string;
  organisationId: string;
  owner: StaffClient;
  /** The reporter, signed in to the follow-up area. */
  follow: ReporterClient;
  fileName: string;
  fileContent: Uint8Array<ArrayBuffer>;
  summary: string;
  reporterMessage: string;
  staffMessage: string;
  note: string;
}

export function ok<T>(result: { data?: T; errors?: unknown }): T {
  if (result.errors || !result.data) throw new Error(JSON.stringify(result.errors));
  return result.data;
}

export async function reportJourney(server: TestServer, marker: string): Promise<Journey> {
  const main = await demoForm(server, "demo", "Workplace Misconduct Report");
  const fileName = `${marker}_statement.txt`;
  const fileContent = new TextEncoder().encode(`Statement by the reporter: ${marker}\n`);
  const texts = { summary: `Title ${marker}`, reporterMessage: `Reporter writes ${marker}`, staffMessage: `Staff replies ${marker}`, note: `Note about ${marker}` };

  const reporter = new ReporterClient(server, "demo.localhost");
  const started = await reporter.post<{ submissionID: string }>("/api/auth/report_start", { reportFormID: main.form.id });
  const submissionId = started.body.submissionID;
  expect(await upload(reporter, fileName, fileContent, "text/plain")).toMatchObject({ status: 200, body: { fileName } });
  const credentials = await submitReport(reporter, main.form.id, main.widgets, { w_summary: [texts.summary] });

  const follow = new ReporterClient(server, "demo.localhost");
  expect((await follow.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword })).status).toBe(200);
  ok(await follow.gql(SEND, { text: texts.reporterMessage }));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20" viewBox="0 0 20 20"><text x="1" y="12">${marker}</text></svg>`;
  expect((await sendImage(follow, { name: `${marker}.svg`, data: svg, type: "image/svg+xml" })).errors).toBeUndefined();

  const owner = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
  await joinTeam(owner, submissionId);
  ok(await owner.gql(SEND, { id: submissionId, text: texts.staffMessage }));
  ok(await owner.gql(NOTE, { id: submissionId, note: texts.note }));
  return { submissionId, organisationId: main.form.organisationId, owner, follow, fileName, fileContent, ...texts };
}

/** What staff read of the journey's report: the summary answer, the files, the chat's texts, the notes. */
export async function staffReading(journey: Journey) {
  const { owner, submissionId } = journey;
  const detail = ok(await owner.gql<{ reportSubmissionGet: Detail }>(DETAIL, { id: submissionId })).reportSubmissionGet;
  const chat = ok(await owner.gql<{ reportConversationMessages: { messages: { type: string; message: string }[] } }>(MESSAGES, { id: submissionId })).reportConversationMessages.messages;
  const notes = ok(await owner.gql<{ reportSubmissionNotes: { list: { note: string }[] } }>(NOTES, { id: submissionId })).reportSubmissionNotes.list;
  return {
    summary: detail.answers.flatMap((page) => page.answers).find((answer) => answer.widgetID === "w_summary")?.answer,
    attachments: detail.attachments,
    messages: chat.filter((message) => message.type === "Text").map((message) => message.message),
    notes: notes.map((note) => note.note),
  };
}

/** Whether staff read the journey's texts and file as they were written and sent. */
export async function expectStaffReadJourney(journey: Journey): Promise<void> {
  const read = await staffReading(journey);
  expect(read.summary).toEqual([journey.summary]);
  expect(read.attachments.map(({ fileName, fileSizeBytes }) => ({ fileName, fileSizeBytes }))).toEqual([{ fileName: journey.fileName, fileSizeBytes: journey.fileContent.length }]);
  expect(read.messages).toEqual(expect.arrayContaining([journey.reporterMessage, journey.staffMessage]));
  expect(read.notes).toContain(journey.note);
  const download = await journey.owner.fetch(read.attachments[0]!.fileURL);
  expect(download.status).toBe(200);
  expect(download.headers.get("content-length")).toBe(String(journey.fileContent.length));
  expect(download.headers.get("content-disposition")).toBe(`attachment; filename*=UTF-8''${journey.fileName}`);
  expect(new Uint8Array(await download.arrayBuffer())).toEqual(journey.fileContent);
}
