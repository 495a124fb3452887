import { beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { organisations, reportConversationMessages, reportConversations, reportForms, reportSubmissions } from "../../../db/schema/index.ts";
import { COMPLETE, demoReportServer, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { openedText } from "../../helpers/sealed-text.ts";
import { demoStaff, joinTeam, type DemoStaff } from "../../helpers/session.ts";
import { formInput, message, type Result } from "../forms/form-api.ts";

/** The form's automatic acknowledgement, sent into the reporter's chat on completion (decision 051). */

const state = demoReportServer();
let as: DemoStaff;

const MESSAGES = `query ($id: ID) { reportConversationMessages(reportSubmissionID: $id, last: 10) { messages { id type message from fromUser { id } } } }`;
const CLOCKS = `query ($id: ID!) { reportSubmissionGet(id: $id) { legalClocks { acknowledgedAt acknowledgeState } } }`;
const UNREAD = `{ reporterSubmission { unreadMessages } }`;
type Chat = { reportConversationMessages: { messages: { type: string; message: string; from: string; fromUser: { id: string } | null }[] } };

beforeAll(async () => {
  as = await demoStaff(state.server);
});

const setAcknowledgement = (text: string) => state.server.db.update(reportForms).set({ acknowledgementMessage: text }).where(eq(reportForms.id, state.main.form.id));

/** A report submitted on the demo's main form, its reporter signed in to follow it up. */
async function submitted() {
  const { server, main } = state;
  const submitter = new ReporterClient(server, "demo.localhost");
  const credentials = await submitReport(submitter, main.form.id, main.widgets);
  const reporter = new ReporterClient(server, "demo.localhost");
  expect((await reporter.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword })).status).toBe(200);
  const [report] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
  return { report: report!, reporter, submitter };
}

async function storedMessages(submissionId: string) {
  return state.server.db
    .select({ type: reportConversationMessages.type, from: reportConversationMessages.from, message: reportConversationMessages.message, organisationId: reportConversationMessages.organisationId })
    .from(reportConversationMessages)
    .innerJoin(reportConversations, eq(reportConversations.id, reportConversationMessages.conversationId))
    .where(eq(reportConversations.submissionId, submissionId));
}

describe("the acknowledgement on completion", () => {
  test("is sent once, sealed, as a System message the reporter and the team read, and acknowledges the report", async () => {
    const canary = "Acknowledged-canary-7f3a: we will look at it within 7 days.";
    await setAcknowledgement(canary);
    const { report, reporter, submitter } = await submitted();
    // Completing again from the same session (a lost answer) re-issues credentials; it must not acknowledge twice.
    expect((await submitter.gql(COMPLETE)).errors).toBeUndefined();

    const stored = await storedMessages(report.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ type: "System", from: "User" });
    expect(stored[0]!.message.startsWith("lx1:")).toBe(true);
    expect(stored[0]!.message).not.toContain("canary");
    expect(await openedText(state.server, report.organisationId, "message", stored[0]!.message)).toBe(canary);

    const seenByReporter = await reporter.gql<Chat>(MESSAGES, {});
    expect(seenByReporter.data?.reportConversationMessages.messages).toEqual([expect.objectContaining({ type: "System", message: canary, from: "User", fromUser: null })]);
    expect((await reporter.gql<{ reporterSubmission: { unreadMessages: number } }>(UNREAD)).data?.reporterSubmission.unreadMessages).toBe(1);

    await joinTeam(as.owner, report.id);
    const seenByStaff = await as.owner.gql<Chat>(MESSAGES, { id: report.id });
    expect(seenByStaff.data?.reportConversationMessages.messages.map((m) => [m.type, m.message])).toEqual([["System", canary]]);

    const clocks = await as.owner.gql<{ reportSubmissionGet: { legalClocks: { acknowledgedAt: string; acknowledgeState: string } } }>(CLOCKS, { id: report.id });
    expect(clocks.data?.reportSubmissionGet.legalClocks.acknowledgeState).toBe("Met");
    const [after] = await state.server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, report.id));
    expect(after!.acknowledgedAt?.getTime()).toBe(after!.completedAt!.getTime());
    // Staff said nothing that waits for the reporter, and the reporter nothing that waits for staff (decision 041).
    const [conversation] = await state.server.db.select().from(reportConversations).where(eq(reportConversations.submissionId, report.id));
    expect(conversation!.awaitingReplySince).toBeNull();
    expect(conversation!.lastMessageAt?.getTime()).toBe(after!.completedAt!.getTime());
  });

  test("is not sent when the form's message is empty, and the report waits for a human acknowledgement", async () => {
    await setAcknowledgement("   ");
    const { report, reporter } = await submitted();
    expect(await storedMessages(report.id)).toEqual([]);
    expect((await reporter.gql<Chat>(MESSAGES, {})).data?.reportConversationMessages.messages).toEqual([]);
    const [after] = await state.server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, report.id));
    expect(after!.acknowledgedAt).toBeNull();
  });

  test("enquiries do not get it: their first message is the visitor's question, and it waits for a person", async () => {
    const [demo] = await state.server.db.select().from(organisations).where(eq(organisations.id, state.demoId));
    const visitor = new ReporterClient(state.server, "demo.localhost");
    const ENQUIRY = `mutation ($org: ID!, $message: String!) { guestSendEnquiry(organisationID: $org, message: $message) { reportID } }`;
    // The enquiry form exists after the first enquiry; give it a message and send another.
    expect((await visitor.gql(ENQUIRY, { org: demo!.id, message: "First question" })).errors).toBeUndefined();
    await state.server.db.update(reportForms).set({ acknowledgementMessage: "Thanks" }).where(and(eq(reportForms.organisationId, demo!.id), eq(reportForms.type, "Enquiry")));
    const sent = await new ReporterClient(state.server, "demo.localhost").gql<{ guestSendEnquiry: { reportID: string } }>(ENQUIRY, { org: demo!.id, message: "Second question" });
    const [enquiry] = await state.server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, sent.data!.guestSendEnquiry.reportID));
    const stored = await storedMessages(enquiry!.id);
    expect(stored.map((row) => [row.type, row.from])).toEqual([["Text", "Guest"]]);
    expect(enquiry!.acknowledgedAt).toBeNull();
  });
});

describe("the form's acknowledgement setting", () => {
  const ACK = `mutation ($input: ReportFormInput!) { reportFormCreate(input: $input) { id acknowledgementMessage } }`;

  test("an admin saves it as plain text, trimmed; a form saved without it sends none", async () => {
    const saved = await as.admin.gql<{ reportFormCreate: { acknowledgementMessage: string } }>(ACK, { input: formInput("Ack form", { acknowledgementMessage: "  Thank you.  " }) });
    expect(saved.data?.reportFormCreate.acknowledgementMessage).toBe("Thank you.");
    const without = await as.admin.gql<{ reportFormCreate: { acknowledgementMessage: string } }>(ACK, { input: formInput("Ack form 2") });
    expect(without.data?.reportFormCreate.acknowledgementMessage).toBe("");
  });

  test("NUL, over-long and wrong-typed values are refused and nothing is saved; members may not set it", async () => {
    const before = (await state.server.db.select().from(reportForms).where(eq(reportForms.organisationId, state.demoId))).length;
    const refused: Result[] = [
      await as.admin.gql(ACK, { input: formInput("Bad 1", { acknowledgementMessage: "a\u0000b" }) }),
      await as.admin.gql(ACK, { input: formInput("Bad 2", { acknowledgementMessage: "x".repeat(1_000_000) }) }),
      await as.admin.gql(ACK, { input: formInput("Bad 3", { acknowledgementMessage: 42 }) }),
      await as.member.gql(ACK, { input: formInput("Bad 4", { acknowledgementMessage: "Hi" }) }),
    ];
    for (const result of refused) expect(message(result)).toBeString();
    expect(message(refused[0]!)).toBe("Text must not contain NUL characters.");
    expect(message(refused[1]!)).toBe("The acknowledgement message can be at most 10000 characters");
    expect((await state.server.db.select().from(reportForms).where(eq(reportForms.organisationId, state.demoId))).length).toBe(before);
  });
});
