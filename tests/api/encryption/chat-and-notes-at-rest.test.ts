import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { SEALED_TEXT_PREFIX } from "../../../api/lib/key-ring.ts";
import { messageTopic } from "../../../api/modules/conversations/messages.ts";
import { organisations, reportConversationMessages, reportConversations, reportSubmissionAnswers, reportSubmissionNotes, reportSubmissions } from "../../../db/schema/index.ts";
import { demoScenarios } from "../../../db/seed/demo-report-scenarios.ts";
import { untilListening } from "../../helpers/live-topics.ts";
import { startDemoWithReporter } from "../../helpers/demo.ts";
import type { ReporterClient } from "../../helpers/reporter.ts";
import type { TestServer } from "../../helpers/server.ts";
import { joinTeam, type DemoStaff, type StaffClient } from "../../helpers/session.ts";
import { startTranslationServer, type TestTranslationServer } from "../../helpers/translation-server.ts";
import { collect, wsClient } from "../../helpers/websocket.ts";

/**
 * Chat messages and report notes are sealed at rest (docs/decisions/049-encryption-at-rest.md):
 * what a reporter or staff type is never in the table in plain, and everyone allowed to read it
 * reads it as typed, wherever it is shown.
 */

type NoteList = { reportSubmissionNotes: { list: { id: string; note: string; newStatus: string | null; editable: boolean }[] } };
type Answer<T = any> = { data?: T | null; errors?: { message: string; extensions?: { code?: string } }[] };

const REPORTER_CANARY = "Canary-Reporter: the warehouse lead Ada Quill takes cash from the till";
const STAFF_CANARY = "Canary-Staff: thank you, Ada Quill's shifts are being checked";
const NOTE_CANARY = "Canary-Note: spoke to the shift supervisor about Ada Quill";
const EDITED_NOTE_CANARY = "Canary-Note-Edited: the supervisor confirmed the till shortfalls";
const CLOSE_CANARY = "Canary-Close: shortfalls confirmed, Ada Quill dismissed";

const SEND = `mutation ($id: ID, $text: String!) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $text }) { id message } }`;
const CHAT = `query ($id: ID) { reportConversationMessages(reportSubmissionID: $id, last: 50) { messages { id message from } } }`;
const LIVE = `subscription ($id: ID) { reportConversationMessage(reportSubmissionID: $id) { action message { id message } } }`;
const CONVERSATIONS = `query ($search: String, $limit: Int) { reportConversations(search: $search, limit: $limit) { list { submission { id } lastMessage { message } } } }`;
const TRANSLATE = `query ($id: ID!, $lang: String!) { reportConversationMessageTranslate(id: $id, lang: $lang) { originalText translatedText } }`;
const NOTES = `query ($id: ID!) { reportSubmissionNotes(reportSubmissionID: $id, limit: 50) { list { id note newStatus editable } } }`;
const ADD_NOTE = `mutation ($id: ID!, $note: String!) { reportSubmissionNoteCreate(reportSubmissionID: $id, note: $note) { id note } }`;
const EDIT_NOTE = `mutation ($id: ID!, $note: String!) { reportSubmissionNoteUpdate(id: $id, note: $note) { id note } }`;
const CLOSE = `mutation ($id: ID!, $note: String) { reportSubmissionClose(id: $id, completeStatus: Completed, note: $note) { status } }`;

let provider: TestTranslationServer;
let server: TestServer;
let as: DemoStaff;
let northwind: StaffClient;
let reporter: ReporterClient;
let demoId: string;
let submissionId: string;
let reportCode: string;

const data = <T>(answer: Answer<T>): T => {
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data!;
};

/** What the table holds, straight from the database as a dump would show it. */
const storedMessages = async (id: string) =>
  (
    await server.db
      .select({ id: reportConversationMessages.id, message: reportConversationMessages.message })
      .from(reportConversationMessages)
      .innerJoin(reportConversations, eq(reportConversations.id, reportConversationMessages.conversationId))
      .where(eq(reportConversations.submissionId, id))
  );
const storedNotes = (id: string) => server.db.select().from(reportSubmissionNotes).where(eq(reportSubmissionNotes.submissionId, id));

function expectSealed(stored: string, ...canaries: string[]) {
  expect(stored.startsWith(SEALED_TEXT_PREFIX)).toBe(true);
  for (const canary of canaries) expect(stored).not.toContain(canary);
  // Not even a recognisable piece of the words.
  expect(stored).not.toContain("Ada Quill");
}

beforeAll(async () => {
  provider = await startTranslationServer();
  ({ server, as, northwind, reporter, demoId, submissionId, reportID: reportCode } = await startDemoWithReporter({ env: { TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: provider.url } }));
  await server.db.update(organisations).set({ enableFormTranslations: true }).where(eq(organisations.id, demoId));
  await joinTeam(as.admin, submissionId);
}, 60_000);
afterAll(async () => {
  await server.stop();
  await provider.stop();
});

describe("chat messages", () => {
  let reporterMessageId: string;

  test("typed by the reporter and by staff, are sealed in the table and read as typed on both sides, live and in the list", async () => {
    const staffLive = wsClient(server, as.admin.cookie);
    const live = collect<{ data?: { reportConversationMessage: { action: string; message: { message: string } } } }>(staffLive, LIVE, 2, { id: submissionId });
    await untilListening(server, messageTopic(submissionId));

    const fromReporter = data(await reporter.gql<{ reportConversationSendMessage: { id: string; message: string } }>(SEND, { text: REPORTER_CANARY }));
    expect(fromReporter.reportConversationSendMessage.message).toBe(REPORTER_CANARY);
    reporterMessageId = fromReporter.reportConversationSendMessage.id;
    const fromStaff = data(await as.admin.gql<{ reportConversationSendMessage: { message: string } }>(SEND, { id: submissionId, text: STAFF_CANARY }));
    expect(fromStaff.reportConversationSendMessage.message).toBe(STAFF_CANARY);

    const stored = await storedMessages(submissionId);
    expect(stored).toHaveLength(2);
    for (const row of stored) expectSealed(row.message, REPORTER_CANARY, STAFF_CANARY);

    await live.done;
    live.dispose();
    await staffLive.dispose();
    expect(live.errors).toEqual([]);
    expect(live.results.map((result) => [result.data?.reportConversationMessage.action, result.data?.reportConversationMessage.message.message])).toEqual([
      ["new", REPORTER_CANARY],
      ["new", STAFF_CANARY],
    ]);

    const staffChat = data(await as.admin.gql<{ reportConversationMessages: { messages: { message: string; from: string }[] } }>(CHAT, { id: submissionId }));
    expect(staffChat.reportConversationMessages.messages.map((m) => [m.from, m.message])).toEqual([
      ["Guest", REPORTER_CANARY],
      ["User", STAFF_CANARY],
    ]);
    const reporterChat = data(await reporter.gql<{ reportConversationMessages: { messages: { message: string }[] } }>(CHAT));
    expect(reporterChat.reportConversationMessages.messages.map((m) => m.message)).toEqual([REPORTER_CANARY, STAFF_CANARY]);

    const list = data(await as.admin.gql<{ reportConversations: { list: { submission: { id: string }; lastMessage: { message: string } | null }[] } }>(CONVERSATIONS, { search: reportCode }));
    expect(list.reportConversations.list.map((item) => [item.submission.id, item.lastMessage?.message])).toEqual([[submissionId, STAFF_CANARY]]);
  });

  test("another organisation's staff read none of it", async () => {
    const denied = await northwind.gql(CHAT, { id: submissionId });
    expect(denied.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect(JSON.stringify(denied)).not.toContain("Ada Quill");
    const translated = await northwind.gql(TRANSLATE, { id: reporterMessageId, lang: "de" });
    expect(translated.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  test("staff translate the reporter's message from its words, not from what is stored", async () => {
    provider.reset();
    const result = data(await as.admin.gql<{ reportConversationMessageTranslate: { originalText: string; translatedText: string } }>(TRANSLATE, { id: reporterMessageId, lang: "de" }));
    expect(result.reportConversationMessageTranslate).toEqual({ originalText: REPORTER_CANARY, translatedText: `[de] ${REPORTER_CANARY}` });
    expect(provider.texts()).toEqual([REPORTER_CANARY]);
  });
});

describe("report notes", () => {
  test("a note is sealed, listed as typed, and its author's edit is shown and sealed afresh", async () => {
    const created = data(await as.admin.gql<{ reportSubmissionNoteCreate: { id: string; note: string } }>(ADD_NOTE, { id: submissionId, note: NOTE_CANARY }));
    expect(created.reportSubmissionNoteCreate.note).toBe(NOTE_CANARY);
    const noteId = created.reportSubmissionNoteCreate.id;
    const [before] = (await storedNotes(submissionId)).filter((row) => row.id === noteId);
    expectSealed(before!.note, NOTE_CANARY);

    const listed = data(await as.admin.gql<NoteList>(NOTES, { id: submissionId }));
    expect(listed.reportSubmissionNotes.list.find((note) => note.id === noteId)).toMatchObject({ note: NOTE_CANARY, editable: true });

    const edited = data(await as.admin.gql<{ reportSubmissionNoteUpdate: { note: string } }>(EDIT_NOTE, { id: noteId, note: EDITED_NOTE_CANARY }));
    expect(edited.reportSubmissionNoteUpdate.note).toBe(EDITED_NOTE_CANARY);
    const [after] = (await storedNotes(submissionId)).filter((row) => row.id === noteId);
    expectSealed(after!.note, NOTE_CANARY, EDITED_NOTE_CANARY);
    expect(after!.note).not.toBe(before!.note);
    const relisted = data(await as.admin.gql<NoteList>(NOTES, { id: submissionId }));
    expect(relisted.reportSubmissionNotes.list.find((note) => note.id === noteId)?.note).toBe(EDITED_NOTE_CANARY);
  });

  test("another organisation's staff cannot list the notes", async () => {
    const denied = await northwind.gql(NOTES, { id: submissionId });
    expect(denied.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect(JSON.stringify(denied)).not.toContain("Ada Quill");
  });

  test("the note written when a report is closed is sealed and listed as typed", async () => {
    expect(data(await as.admin.gql<{ reportSubmissionClose: { status: string } }>(CLOSE, { id: submissionId, note: CLOSE_CANARY })).reportSubmissionClose.status).toBe("Completed");
    const closing = (await storedNotes(submissionId)).find((row) => row.newStatus === "Completed");
    expectSealed(closing!.note, CLOSE_CANARY);
    const listed = data(await as.admin.gql<NoteList>(NOTES, { id: submissionId }));
    expect(listed.reportSubmissionNotes.list.find((note) => note.newStatus === "Completed")?.note).toBe(CLOSE_CANARY);
  });
});

describe("the demo seed", () => {
  const scenarios = Object.values(demoScenarios(new Date())).flatMap((organisation) => organisation.reports);
  const seededMessages = new Set(scenarios.flatMap((scenario) => scenario.messages ?? []));

  test("stores its reporters' answers, its notes and its chat sealed", async () => {
    const seeded = await server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.organisationId, demoId));
    const ids = seeded.map((row) => row.id).filter((id) => id !== submissionId);
    const messages = await server.db
      .select({ message: reportConversationMessages.message })
      .from(reportConversationMessages)
      .innerJoin(reportConversations, eq(reportConversations.id, reportConversationMessages.conversationId))
      .where(inArray(reportConversations.submissionId, ids));
    const notes = await server.db.select({ note: reportSubmissionNotes.note }).from(reportSubmissionNotes).where(inArray(reportSubmissionNotes.submissionId, ids));
    const answers = await server.db.select({ answer: reportSubmissionAnswers.answer }).from(reportSubmissionAnswers).where(inArray(reportSubmissionAnswers.submissionId, ids));
    expect(messages.length).toBeGreaterThan(5);
    expect(notes.length).toBeGreaterThan(3);
    const stored = [...messages.map((row) => row.message), ...notes.map((row) => row.note), ...answers.flatMap((row) => row.answer).filter((text) => text !== "")];
    expect(stored.filter((text) => !text.startsWith(SEALED_TEXT_PREFIX))).toEqual([]);
    const dump = stored.join("\n");
    for (const text of seededMessages) expect(dump).not.toContain(text.slice(0, 24));
  });

  test("reads in the console as written: each chat, the conversations list and the notes", async () => {
    const chats = await server.db
      .select({ submissionId: reportConversations.submissionId })
      .from(reportConversations)
      .innerJoin(reportConversationMessages, eq(reportConversationMessages.conversationId, reportConversations.id))
      .where(and(eq(reportConversations.organisationId, demoId)))
      .groupBy(reportConversations.submissionId);
    const scenarioChats = scenarios.map((scenario) => JSON.stringify(scenario.messages ?? []));
    for (const chat of chats.filter((row) => row.submissionId !== submissionId)) {
      const read = data(await as.owner.gql<{ reportConversationMessages: { messages: { message: string }[] } }>(CHAT, { id: chat.submissionId }));
      expect(scenarioChats).toContain(JSON.stringify(read.reportConversationMessages.messages.map((m) => m.message)));
    }

    const list = data(await as.owner.gql<{ reportConversations: { list: { submission: { id: string }; lastMessage: { message: string } | null }[] } }>(CONVERSATIONS, { limit: 100 }));
    const lastMessages = list.reportConversations.list.filter((item) => item.submission.id !== submissionId && item.lastMessage).map((item) => item.lastMessage!.message);
    expect(lastMessages.length).toBeGreaterThan(0);
    for (const message of lastMessages) expect(seededMessages.has(message)).toBe(true);

    const seededNotes = new Set(scenarios.flatMap((scenario) => scenario.notes ?? []));
    const withNotes = await server.db.selectDistinct({ id: reportSubmissionNotes.submissionId }).from(reportSubmissionNotes).where(eq(reportSubmissionNotes.organisationId, demoId));
    let read = 0;
    for (const { id } of withNotes.filter((row) => row.id !== submissionId)) {
      const listed = data(await as.owner.gql<NoteList>(NOTES, { id }));
      for (const note of listed.reportSubmissionNotes.list) {
        read += 1;
        expect(note.newStatus ? note.note.startsWith("Report Marked as ") : seededNotes.has(note.note)).toBe(true);
      }
    }
    expect(read).toBeGreaterThan(3);
  });
});

describe("a stored message that does not open", () => {
  test("is an internal error, never shown as stored", async () => {
    // A value sealed for another purpose of the same organisation: well formed, but not a message.
    const sealer = await server.lantern.services.keyRing.sealer(server.db, demoId);
    const [conversation] = await server.db.select().from(reportConversations).where(eq(reportConversations.submissionId, submissionId));
    const misplaced = sealer.sealText("note", "Canary-Misplaced: not a chat message");
    await server.db.insert(reportConversationMessages).values({ conversationId: conversation!.id, organisationId: demoId, type: "Text", message: misplaced, from: "Guest" });
    const read = await as.admin.gql(CHAT, { id: submissionId });
    expect(read.errors?.[0]?.extensions?.code).toBe("INTERNAL_SERVER_ERROR");
    expect(JSON.stringify(read)).not.toContain(misplaced);
    expect(JSON.stringify(read)).not.toContain("Canary-Misplaced");
  });
});
