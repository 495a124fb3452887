import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { SEALED_TEXT_PREFIX } from "../../../api/lib/key-ring.ts";
import { organisations, reportConversationMessages, reportConversations, reportSubmissionAnswers, reportSubmissionNotes, reportSubmissions } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { openedAnswers } from "../../helpers/opened-answers.ts";
import { COMPLETE, demoForm, pagesOfAnswers, ReporterClient, UPDATE } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { demoStaff, joinTeam, type DemoStaff, type StaffClient } from "../../helpers/session.ts";
import { startTranslationServer, type TestTranslationServer } from "../../helpers/translation-server.ts";
import { parseCsv, readZip } from "../../helpers/zip-reader.ts";

/**
 * Reporters' answers are sealed at rest (docs/decisions/049): typed through the reporter's own API,
 * they are unreadable in the database, and read back as typed wherever someone is meant to read
 * them: the reporter's follow-up area, the console, translation and every export.
 */

const CANARY = `Canary${randomUUID().replace(/-/g, "")}`;
const SHORT = `${CANARY} short title`;
const LONG = `${CANARY} long description\nwith a second line — ünïcødé`;
/** A chosen option is a fixed text, so the option itself is the canary: distinctive, and guarding a question. */
const LOCATION = "Online or remote";
const KIND = "Fraud";
const AMOUNT = `${CANARY} amount`;
const CHOICES = { w_summary: [SHORT], w_description: [LONG], w_location: [LOCATION], w_misconduct_kind: [KIND], w_amount: [AMOUNT] };

type Answers = { name: string; answers: { widgetID: string; answer: string[] }[] }[];
const REPORTER_VIEW = `{ reporterSubmission { completed pages { name answers { widgetID answer } } } }`;
const DETAIL = `query ($id: ID!) { reportSubmissionGet(id: $id) { answers { name answers { widgetID answer } } } }`;
const TRANSLATE = `query ($id: ID!, $lang: String!) { reportSubmissionTranslate(id: $id, lang: $lang) { answers { widgetID originalText translatedText } } }`;
const NOTE = `mutation ($id: ID!, $note: String!) { reportSubmissionNoteCreate(reportSubmissionID: $id, note: $note) { id } }`;
const SEND = `mutation ($id: ID, $text: String!) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $text }) { id } }`;

let provider: TestTranslationServer;
let server: TestServer;
let as: DemoStaff;
let main: Awaited<ReturnType<typeof demoForm>>;
let reporter: ReporterClient;
let submissionId: string;
let reportID: string;

const byWidget = (pages: Answers) => Object.fromEntries(pages.flatMap((page) => page.answers).map((answer) => [answer.widgetID, answer.answer]));
const save = async (client: ReporterClient, page: number, answers: { widgetID: string; answer: string[] }[]) => {
  const result = await client.gql<{ userReportSubmissionUpdate: { success: boolean; errors: unknown[] } }>(UPDATE, { page, answers });
  expect(result.data?.userReportSubmissionUpdate).toEqual({ success: true, errors: [] });
};
const sealerOf = (organisationId: string) => server.lantern.services.keyRing.sealer(server.db, organisationId);
const rawAnswers = (id: string) => server.db.select().from(reportSubmissionAnswers).where(eq(reportSubmissionAnswers.submissionId, id));
const exportAs = (client: StaffClient, path: "export-all" | "download-csv") =>
  client.fetch(`/api/report-submissions/${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ search: { text: reportID }, limit: -1, offset: 0 }) });

/** Each stored text is sealed, and none carries the typed words or the options chosen. */
async function expectSealed(id: string) {
  const rows = await rawAnswers(id);
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    for (const text of row.answer) {
      expect(text.startsWith(SEALED_TEXT_PREFIX)).toBe(true);
      for (const typed of [CANARY, LOCATION, KIND]) expect(text).not.toContain(typed);
    }
  }
}

beforeAll(async () => {
  provider = await startTranslationServer();
  server = await startTestServer({ env: { TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: provider.url } });
  await seedDemo(server.db);
  as = await demoStaff(server);
  main = await demoForm(server, "demo", "Workplace Misconduct Report");
  await server.db.update(organisations).set({ enableFormTranslations: true }).where(eq(organisations.id, main.form.organisationId));
}, 60_000);
afterAll(async () => {
  await server.stop();
  await provider.stop();
});

describe("a reporter's journey with answers sealed at rest", () => {
  test("a Draft saved page by page is sealed, and resumed shows the reporter what they typed", async () => {
    reporter = new ReporterClient(server, "demo.localhost");
    const started = await reporter.post<{ submissionID: string }>("/api/auth/report_start", { reportFormID: main.form.id });
    expect(started.status).toBe(200);
    submissionId = started.body.submissionID;
    const pages = pagesOfAnswers(main.widgets, CHOICES);
    // The guarded question is on the page because the option chosen shows it.
    expect(pages.flat().map((answer) => answer.widgetID)).toContain("w_amount");
    for (const [page, answers] of pages.entries()) await save(reporter, page, answers);
    await expectSealed(submissionId);

    // Resumed from the database, not from this instance's copy of the Draft.
    server.lantern.services.draftSnapshots.forget(submissionId);
    const resumed = await reporter.post<{ submissionID: string }>("/api/auth/report_start", { reportFormID: main.form.id });
    expect(resumed.body.submissionID).toBe(submissionId);
    const view = await reporter.gql<{ reporterSubmission: { completed: boolean; pages: Answers } }>(REPORTER_VIEW);
    expect(view.data?.reporterSubmission.completed).toBe(false);
    expect(byWidget(view.data!.reporterSubmission.pages)).toMatchObject({ w_summary: [SHORT], w_description: [LONG], w_location: [LOCATION], w_misconduct_kind: [KIND], w_amount: [AMOUNT] });
    expect(JSON.stringify(view)).not.toContain(SEALED_TEXT_PREFIX);
  });

  test("a page saved again is compared with what was typed: a changed choice hides its guarded question", async () => {
    const withoutFraud = pagesOfAnswers(main.widgets, { ...CHOICES, w_misconduct_kind: ["Harassment or bullying"] });
    const page = withoutFraud.findIndex((answers) => answers.some((answer) => answer.widgetID === "w_misconduct_kind"));
    // The guarded answer is sent anyway: the server, reading the stored choices opened, drops it.
    server.lantern.services.draftSnapshots.forget(submissionId);
    await save(reporter, page, [...withoutFraud[page]!, { widgetID: "w_amount", answer: [AMOUNT] }]);
    expect((await openedAnswers(server, submissionId)).w_amount).toBeUndefined();
    // Chosen again, it shows again.
    server.lantern.services.draftSnapshots.forget(submissionId);
    await save(reporter, page, pagesOfAnswers(main.widgets, CHOICES)[page]!);
    expect((await openedAnswers(server, submissionId)).w_amount).toEqual([AMOUNT]);
    await expectSealed(submissionId);
  });

  test("the completion decides on the answers opened: the guarded answer stays, every answer stays sealed", async () => {
    // Completed on a fresh read: conditions are evaluated on the stored answers, opened.
    server.lantern.services.draftSnapshots.forget(submissionId);
    const done = await reporter.gql<{ userReportSubmissionComplete: { reportID: string } }>(COMPLETE);
    expect(done.errors).toBeUndefined();
    reportID = done.data!.userReportSubmissionComplete.reportID;
    const stored = await openedAnswers(server, submissionId);
    expect(stored).toMatchObject({ w_summary: [SHORT], w_description: [LONG], w_location: [LOCATION], w_misconduct_kind: [KIND], w_amount: [AMOUNT] });
    await expectSealed(submissionId);
  });

  test("the reporter's follow-up view shows the answers as typed", async () => {
    const view = await reporter.gql<{ reporterSubmission: { completed: boolean; pages: Answers } }>(REPORTER_VIEW);
    expect(view.data?.reporterSubmission.completed).toBe(true);
    expect(byWidget(view.data!.reporterSubmission.pages)).toMatchObject({ w_summary: [SHORT], w_description: [LONG], w_location: [LOCATION], w_amount: [AMOUNT] });
  });

  test("allowed: staff read the answers as typed in the report's detail; denied: another organisation's staff", async () => {
    const detail = await as.admin.gql<{ reportSubmissionGet: { answers: Answers } }>(DETAIL, { id: submissionId });
    expect(detail.errors).toBeUndefined();
    expect(byWidget(detail.data!.reportSubmissionGet.answers)).toMatchObject({ w_summary: [SHORT], w_description: [LONG], w_location: [LOCATION], w_amount: [AMOUNT] });
    expect(JSON.stringify(detail)).not.toContain(SEALED_TEXT_PREFIX);
    const guest = await as.guest.gql<{ reportSubmissionGet: { answers: Answers } }>(DETAIL, { id: submissionId });
    expect(JSON.stringify(guest)).not.toContain(CANARY);
  });

  test("staff translation sends the provider the answers as typed, never sealed text", async () => {
    await joinTeam(as.owner, submissionId);
    provider.reset();
    const translated = await as.owner.gql<{ reportSubmissionTranslate: { answers: { widgetID: string; originalText: string; translatedText: string }[] } }>(TRANSLATE, { id: submissionId, lang: "de" });
    expect(translated.errors).toBeUndefined();
    const answers = Object.fromEntries(translated.data!.reportSubmissionTranslate.answers.map((answer) => [answer.widgetID, answer]));
    expect(answers.w_summary).toMatchObject({ originalText: SHORT, translatedText: `[de] ${SHORT}` });
    expect(answers.w_description).toMatchObject({ originalText: LONG, translatedText: `[de] ${LONG}` });
    expect(provider.texts()).toContain(SHORT);
    expect(provider.texts().some((text) => text.includes(SEALED_TEXT_PREFIX))).toBe(false);
  });
});

describe("exports with answers, notes and messages sealed at rest", () => {
  const NOTE_TEXT = `${CANARY} note by staff`;
  const MESSAGE_TEXT = `${CANARY} message from staff`;

  beforeAll(async () => {
    // Notes and messages are sealed on write by their own modules; sealed here, the export must open them.
    const note = await as.owner.gql<{ reportSubmissionNoteCreate: { id: string } }>(NOTE, { id: submissionId, note: NOTE_TEXT });
    const message = await as.owner.gql<{ reportConversationSendMessage: { id: string } }>(SEND, { id: submissionId, text: MESSAGE_TEXT });
    const sealer = await sealerOf(main.form.organisationId);
    await server.db.update(reportSubmissionNotes).set({ note: sealer.sealText("note", NOTE_TEXT) }).where(eq(reportSubmissionNotes.id, note.data!.reportSubmissionNoteCreate.id));
    await server.db.update(reportConversationMessages).set({ message: sealer.sealText("message", MESSAGE_TEXT) }).where(eq(reportConversationMessages.id, message.data!.reportConversationSendMessage.id));
  });

  const expectOpened = (html: string) => {
    for (const text of [SHORT, LOCATION, AMOUNT, NOTE_TEXT, MESSAGE_TEXT, `${CANARY} long description`]) expect(html).toContain(text);
    expect(html).not.toContain(SEALED_TEXT_PREFIX);
  };

  test("the report's document shows the answers, notes and messages as written", async () => {
    const response = await as.owner.fetch(`/api/report-submissions/export/${submissionId}`);
    expect(response.status).toBe(200);
    expectOpened(await response.text());
  });

  test("the zip of reports shows them as written", async () => {
    const response = await exportAs(as.owner, "export-all");
    expect(response.status).toBe(200);
    const files = readZip(new Uint8Array(await response.arrayBuffer()));
    const file = files.get(`Report ${reportID}.html`);
    expect(file).toBeDefined();
    expectOpened(new TextDecoder().decode(file));
  });

  test("the CSV carries the report's triage facts and nothing sealed", async () => {
    const response = await exportAs(as.owner, "download-csv");
    expect(response.status).toBe(200);
    const text = await response.text();
    const rows = parseCsv(text.replace(/^\uFEFF/, ""));
    expect(rows.some((row) => row[0] === reportID)).toBe(true);
    expect(text).not.toContain(SEALED_TEXT_PREFIX);
  });

  test("denied: a member cannot export the report, and learns nothing of it", async () => {
    const response = await as.member.fetch(`/api/report-submissions/export/${submissionId}`);
    expect(response.status).not.toBe(200);
    expect(await response.text()).not.toContain(CANARY);
  });
});

describe("an enquiry", () => {
  test("its message is stored sealed as the enquiry's answer, and opens to what was written", async () => {
    const organisationId = main.form.organisationId;
    await server.db.update(organisations).set({ generalEnquiryEnabled: true }).where(eq(organisations.id, organisationId));
    const visitor = new ReporterClient(server, "demo.localhost");
    const text = `${CANARY} enquiry question`;
    const sent = await visitor.gql<{ guestSendEnquiry: { reportID: string } }>(`mutation ($org: ID!, $message: String!) { guestSendEnquiry(organisationID: $org, message: $message) { reportID } }`, { org: organisationId, message: text });
    expect(sent.errors).toBeUndefined();
    const [row] = await server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.reportId, sent.data!.guestSendEnquiry.reportID));
    const [raw] = await rawAnswers(row!.id);
    expect(raw!.answer[0]!.startsWith(SEALED_TEXT_PREFIX)).toBe(true);
    expect(raw!.answer[0]).not.toContain(CANARY);
    expect(Object.values(await openedAnswers(server, row!.id))).toEqual([[text]]);
    // The chat starts with the same message, sealed too.
    const messages = await server.db.select({ message: reportConversationMessages.message }).from(reportConversationMessages).innerJoin(reportConversations, eq(reportConversations.id, reportConversationMessages.conversationId)).where(eq(reportConversations.submissionId, row!.id));
    expect(messages).toHaveLength(1);
    expect(messages[0]!.message.startsWith(SEALED_TEXT_PREFIX)).toBe(true);
    expect(messages[0]!.message).not.toContain(CANARY);
    // Staff read the question with the report (the seeded Enquiry form's own question) and in its chat.
    const detail = await as.owner.gql<{ reportSubmissionGet: { answers: { answers: { title: string; answer: string[] }[] }[] } }>(`query ($id: ID!) { reportSubmissionGet(id: $id) { answers { answers { title answer } } } }`, { id: row!.id });
    expect(detail.data?.reportSubmissionGet.answers.flatMap((page) => page.answers)).toEqual([{ title: "Message", answer: [text] }]);
    await joinTeam(as.owner, row!.id);
    const chat = await as.owner.gql<{ reportConversationMessages: { messages: { message: string }[] } }>(`query ($id: ID!) { reportConversationMessages(reportSubmissionID: $id) { messages { message } } }`, { id: row!.id });
    expect(chat.errors).toBeUndefined();
    expect(chat.data?.reportConversationMessages.messages.map((message) => message.message)).toEqual([text]);
  });
});
