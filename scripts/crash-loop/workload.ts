import { postSolving } from "../../tests/helpers/proof-of-work.ts";
import { complete, readyDrafts, type Credentials, type DemoMainForm, type ReadyDraft } from "../../tests/helpers/ready-drafts.ts";
import { ReporterClient, submitReport } from "../../tests/helpers/reporter.ts";
import type { TestServer } from "../../tests/helpers/server.ts";
import { joinTeam, loginAs, type StaffClient } from "../../tests/helpers/session.ts";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";

/**
 * What the crash loop writes while it waits to stop the server: reporters completing their reports,
 * a case handler writing notes and chat messages on one report, and that report's reporter writing
 * back. Only what the server acknowledged is owed afterwards; the rest may be there or not, but once.
 */

const NOTE = `mutation ($id: ID!, $note: String!) { reportSubmissionNoteCreate(reportSubmissionID: $id, note: $note) { id } }`;
const STAFF_SEND = `mutation ($id: ID, $text: String!) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $text }) { id } }`;
const REPORTER_SEND = `mutation ($text: String!) { reportConversationSendMessage(input: { type: Text, message: $text }) { id } }`;
const OWNER = "owner@demo.test";

/** The report whose notes and chat the staff and its reporter write in every cycle. */
export interface Conversation {
  submissionId: string;
  credentials: Credentials;
  reporter: ReporterClient;
  owner: StaffClient;
}

/** Everything acknowledged so far, and what was sent without an answer. */
export interface Ledger {
  /** Acknowledged completions, with their Draft (answers and file) to compare with. */
  reports: { draft: ReadyDraft; credentials: Credentials; cycle: number }[];
  /** Reports acknowledged since the last restart, not yet read back whole. */
  unread: { draft: ReadyDraft; credentials: Credentials; cycle: number }[];
  /** Ready Drafts whose completion was not acknowledged (`sent`: sent and unanswered; else not yet sent at the stop): after the restart they must complete. */
  unanswered: { draft: ReadyDraft; cycle: number; sent: boolean }[];
  /** Acknowledged note and message texts, by their id. */
  notes: Map<string, string>;
  messages: Map<string, string>;
  /** Every note and message text sent, answered or not: nothing else may appear. */
  sentTexts: Set<string>;
}

export function emptyLedger(): Ledger {
  return { reports: [], unread: [], unanswered: [], notes: new Map(), messages: new Map(), sentTexts: new Set() };
}

async function signInReporter(server: TestServer, credentials: Credentials): Promise<ReporterClient> {
  const reporter = new ReporterClient(server, "demo.localhost");
  const { response } = await postSolving(
    (body) => reporter.fetch("/api/auth/report_login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }),
    { reportID: credentials.reportID, password: credentials.generatedPassword },
  );
  if (response.status !== 200) throw new Error(`the conversation's reporter could not sign in: ${response.status}`);
  return reporter;
}

/** A report of the demo's main form, taken on by its owner, its reporter signed in. */
export async function openConversation(server: TestServer, form: DemoMainForm): Promise<Conversation> {
  const credentials = await submitReport(new ReporterClient(server, form.host), form.formId, form.widgets);
  const reporter = await signInReporter(server, credentials);
  const read = await reporter.gql<{ reporterSubmission: { id: string } }>(`query { reporterSubmission { id } }`);
  const submissionId = read.data!.reporterSubmission.id;
  const owner = await loginAs(server, OWNER, DEMO_PASSWORD);
  await joinTeam(owner, submissionId);
  return { submissionId, credentials, reporter, owner };
}

/** Sessions end when idle (staff after 30 minutes): a long loop signs in again when one has. */
export async function keepSignedIn(server: TestServer, conversation: Conversation): Promise<void> {
  const staff = await conversation.owner.gql(`query ($id: ID!) { reportSubmissionNotes(reportSubmissionID: $id, limit: 1) { total } }`, { id: conversation.submissionId });
  if (!staff.data) conversation.owner = await loginAs(server, OWNER, DEMO_PASSWORD);
  const reporter = await conversation.reporter.gql(`query { reporterSubmission { id } }`);
  if (!reporter.data) conversation.reporter = await signInReporter(server, conversation.credentials);
}

/** Ready Drafts for this cycle: everything but the completion, done before the writing starts. */
export function prepareDrafts(server: TestServer, form: DemoMainForm, count: number, cycle: number): Promise<ReadyDraft[]> {
  return readyDrafts(server, [form], count, `cycle-${cycle}`);
}

async function acknowledgedId(send: Promise<{ data?: unknown }>, field: string): Promise<string | null> {
  try {
    const result = (await send) as { data?: Record<string, { id?: string } | null> };
    return result.data?.[field]?.id ?? null;
  } catch {
    return null;
  }
}

export interface Writing {
  /** Called at the moment of the stop: nobody sends anything new from then on. */
  halt(): void;
  /** Settles once every request sent has been answered or has failed. */
  done: Promise<void>;
}

/**
 * Starts the writing: each Draft completes at a random moment within the window, while the case
 * handler writes notes and messages and the reporter writes messages, one after the other each.
 */
export function startWriting(cycle: number, drafts: ReadyDraft[], conversation: Conversation, ledger: Ledger, random: () => number, windowMs: number): Writing {
  let halted = false;
  const completions = drafts.map(async (draft) => {
    await Bun.sleep(Math.floor(random() * windowMs * 0.8));
    const sent = !halted;
    const credentials = sent ? await complete(draft) : null;
    if (credentials) {
      ledger.reports.push({ draft, credentials, cycle });
      ledger.unread.push({ draft, credentials, cycle });
    } else ledger.unanswered.push({ draft, cycle, sent });
  });
  const writer = async (label: string, send: (text: string) => Promise<{ data?: unknown }>, field: string, into: Map<string, string>) => {
    for (let sent = 0; !halted; sent += 1) {
      const text = `cycle ${cycle} ${label} ${sent}`;
      ledger.sentTexts.add(text);
      const id = await acknowledgedId(send(text), field);
      if (id) into.set(id, text);
    }
  };
  const id = conversation.submissionId;
  const writers = [
    writer("note", (note) => conversation.owner.gql(NOTE, { id, note }), "reportSubmissionNoteCreate", ledger.notes),
    writer("staff message", (text) => conversation.owner.gql(STAFF_SEND, { id, text }), "reportConversationSendMessage", ledger.messages),
    writer("reporter message", (text) => conversation.reporter.gql(REPORTER_SEND, { text }), "reportConversationSendMessage", ledger.messages),
  ];
  return {
    halt: () => void (halted = true),
    done: Promise.all([...completions, ...writers]).then(() => {}),
  };
}
