import { expect } from "bun:test";
import { complete, expectWholeReport, inPool } from "../../tests/helpers/ready-drafts.ts";
import type { TestServer } from "../../tests/helpers/server.ts";
import type { Conversation, Ledger } from "./workload.ts";

/**
 * What every start after a stop must show (docs/decisions/069-crash-loop.md): each acknowledged
 * report whole, each unanswered one completing on retry, no report of ours visible to staff that
 * its reporter holds no credentials for, and each acknowledged note and message there exactly once.
 */

const REPORT_PAGE = `query ($form: ID, $offset: Int) { reportSubmissions(reportFormID: $form, limit: 100, offset: $offset) { total list { id reportID } } }`;
const NOTE_PAGE = `query ($id: ID!, $offset: Int) { reportSubmissionNotes(reportSubmissionID: $id, limit: 100, offset: $offset) { total list { id note } } }`;
const MESSAGE_PAGE = `query ($id: ID, $before: ID) { reportConversationMessages(reportSubmissionID: $id, last: 50, before: $before) { hasMore messages { id message } } }`;
const WIDTH = 8;

export interface CheckFigures {
  readBack: number;
  /** Completions sent without an answer, completed again. */
  retried: number;
  /** Completions not yet sent when the server stopped, sent now. */
  sentLate: number;
}

/** Reads back what the last cycles acknowledged, and completes what they left unanswered. */
export async function checkAfterRestart(server: TestServer, conversation: Conversation, ledger: Ledger, formId: string, preparedIds: Set<string>): Promise<CheckFigures> {
  const unread = ledger.unread.splice(0);
  await inPool(unread, WIDTH, ({ draft, credentials }) => expectWholeReport(server, draft, credentials));

  // A completion the server never answered: the reporter's page sends it again and must get a whole report.
  const unanswered = ledger.unanswered.splice(0);
  await inPool(unanswered, WIDTH, async ({ draft, cycle }) => {
    const credentials = await complete(draft);
    expect({ cycle, draft: draft.index, completedOnRetry: Boolean(credentials) }).toEqual({ cycle, draft: draft.index, completedOnRetry: true });
    await expectWholeReport(server, draft, credentials!);
    ledger.reports.push({ draft, credentials: credentials!, cycle });
  });

  await expectReportsListedOnce(conversation, ledger, formId, preparedIds);
  await expectWrittenOnce("note", await allNotes(conversation), ledger.notes, ledger.sentTexts);
  await expectWrittenOnce("message", await allMessages(conversation), ledger.messages, ledger.sentTexts);
  const retried = unanswered.filter((entry) => entry.sent).length;
  return { readBack: unread.length, retried, sentLate: unanswered.length - retried };
}

/** Every acknowledged report is listed to staff once, under its ID; none of ours is listed without credentials. */
async function expectReportsListedOnce(conversation: Conversation, ledger: Ledger, formId: string, preparedIds: Set<string>): Promise<void> {
  const listed: { id: string; reportID: string }[] = [];
  for (let total = Infinity; listed.length < total; ) {
    const page = await conversation.owner.gql<{ reportSubmissions: { total: number; list: { id: string; reportID: string }[] } }>(REPORT_PAGE, { form: formId, offset: listed.length });
    if (!page.data) throw new Error(`the report list: ${JSON.stringify(page.errors)}`);
    total = page.data.reportSubmissions.total;
    if (page.data.reportSubmissions.list.length === 0) break;
    listed.push(...page.data.reportSubmissions.list);
  }
  const ours = listed.filter((row) => preparedIds.has(row.id)).sort((a, b) => a.id.localeCompare(b.id));
  const owed = ledger.reports.map(({ draft, credentials }) => ({ id: draft.submissionId, reportID: credentials.reportID })).sort((a, b) => a.id.localeCompare(b.id));
  expect(ours).toEqual(owed);
}

async function allNotes(conversation: Conversation): Promise<{ id: string; text: string }[]> {
  const notes: { id: string; text: string }[] = [];
  for (let total = Infinity; notes.length < total; ) {
    const page = await conversation.owner.gql<{ reportSubmissionNotes: { total: number; list: { id: string; note: string }[] } }>(NOTE_PAGE, { id: conversation.submissionId, offset: notes.length });
    if (!page.data) throw new Error(`the notes: ${JSON.stringify(page.errors)}`);
    total = page.data.reportSubmissionNotes.total;
    if (page.data.reportSubmissionNotes.list.length === 0) break;
    notes.push(...page.data.reportSubmissionNotes.list.map((note) => ({ id: note.id, text: note.note })));
  }
  return notes;
}

type MessagePage = { hasMore: boolean; messages: { id: string; message: string }[] };

async function allMessages(conversation: Conversation): Promise<{ id: string; text: string }[]> {
  const messages: { id: string; text: string }[] = [];
  for (let before: string | null = null, more = true; more; ) {
    const page: { data?: { reportConversationMessages: MessagePage }; errors?: unknown } = await conversation.owner.gql(MESSAGE_PAGE, { id: conversation.submissionId, before });
    if (!page.data) throw new Error(`the chat: ${JSON.stringify(page.errors)}`);
    const { hasMore, messages: older } = page.data.reportConversationMessages;
    messages.push(...older.map((message) => ({ id: message.id, text: message.message })));
    more = hasMore && older.length > 0;
    before = older[0]?.id ?? null;
  }
  return messages;
}

/** Each acknowledged text there under its id; no text the loop sent there twice. */
async function expectWrittenOnce(what: string, found: { id: string; text: string }[], acknowledged: Map<string, string>, sent: Set<string>): Promise<void> {
  const ours = found.filter((item) => sent.has(item.text));
  const counts = new Map<string, number>();
  for (const item of ours) counts.set(item.text, (counts.get(item.text) ?? 0) + 1);
  const twice = [...counts].filter(([, count]) => count > 1).map(([text]) => text);
  expect({ what, twice }).toEqual({ what, twice: [] });
  const byId = new Map(found.map((item) => [item.id, item.text]));
  const missing = [...acknowledged].filter(([id, text]) => byId.get(id) !== text).map(([, text]) => text);
  expect({ what, missing }).toEqual({ what, missing: [] });
}
