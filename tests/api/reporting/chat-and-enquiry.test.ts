import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { organisations, reportSubmissions } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD, DEMO_REPORT_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { joinTeam, loginAs, type StaffClient } from "../../helpers/session.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { collect, wsClient } from "../../helpers/websocket.ts";

let server: TestServer;
let demoOwner: StaffClient;
let northwindOwner: StaffClient;
let reporter: ReporterClient;
let submissionId: string;

const MESSAGES = `query ($id: ID, $before: ID) { reportConversationMessages(reportSubmissionID: $id, last: 10, before: $before) { hasMore messages { id message from read fromUser { firstName lastName } } } }`;
const SEND = `mutation ($id: ID, $text: String!) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $text }) { id message from } }`;
const READ = `mutation ($id: ID, $ids: [ID!]!) { reportConversationReadMessages(reportSubmissionID: $id, messageIDs: $ids) }`;
const UNREAD = `{ reporterSubmission { unreadMessages conversationClosed } }`;
type Page = { reportConversationMessages: { hasMore: boolean; messages: { id: string; message: string; from: string; read: boolean; fromUser: { lastName: string } | null }[] } };

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  demoOwner = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
  northwindOwner = await loginAs(server, "owner@northwind.test", DEMO_PASSWORD);
  const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
  const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets);
  reporter = new ReporterClient(server, "demo.localhost");
  await reporter.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword });
  const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
  submissionId = row!.id;
});

describe("who may write in a report's chat", () => {
  test("staff who are not on the report's team may not reply; once they join, they may", async () => {
    const [late] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, submissionId));
    expect(late!.status).toBe("New");
    expect((await demoOwner.gql(SEND, { id: submissionId, text: "Before joining" })).errors?.[0]?.message).toBe("Only members of the report team can reply.");
    const member = await loginAs(server, "member@demo.test", DEMO_PASSWORD);
    expect((await member.gql(MESSAGES, { id: submissionId })).errors?.[0]?.message).toBe("Report Submission is not found");
    await joinTeam(demoOwner, submissionId);
  });
});
afterAll(() => server.stop());

describe("chat between reporter and staff", () => {
  test("the reporter writes; staff of the organisation read it; another organisation cannot", async () => {
    const sent = await reporter.gql<{ reportConversationSendMessage: { from: string } }>(SEND, { text: "  When can I expect an answer?  " });
    expect(sent.data?.reportConversationSendMessage.from).toBe("Guest");
    expect((await reporter.gql(SEND, { text: "   " })).errors?.[0]?.message).toBe("Required");
    const seen = await demoOwner.gql<Page>(MESSAGES, { id: submissionId });
    expect(seen.data?.reportConversationMessages.messages.map((m) => m.message)).toEqual(["When can I expect an answer?"]);
    expect((await northwindOwner.gql(MESSAGES, { id: submissionId })).errors?.[0]?.message).toBe("Report Submission is not found");
    expect((await northwindOwner.gql(SEND, { id: submissionId, text: "hello" })).errors?.[0]?.message).toBe("Report Submission is not found");
  });

  test("staff replies arrive live over the WebSocket; unread counts and read receipts follow", async () => {
    const client = wsClient(server, reporter.cookie, { host: "demo.localhost" });
    const live = collect<{ data: { reportConversationMessage: { action: string; message: { message: string; from: string } } } }>(client, `subscription { reportConversationMessage { action message { message from } } }`, 1);
    await Bun.sleep(300);
    const reply = await demoOwner.gql<{ reportConversationSendMessage: { id: string } }>(SEND, { id: submissionId, text: "Thank you. We will be in touch this week." });
    await live.done;
    expect(live.results[0]?.data.reportConversationMessage).toEqual({ action: "new", message: { message: "Thank you. We will be in touch this week.", from: "User" } });
    live.dispose();
    await client.dispose();

    expect((await reporter.gql<{ reporterSubmission: { unreadMessages: number } }>(UNREAD)).data?.reporterSubmission.unreadMessages).toBe(1);
    const page = await reporter.gql<Page>(MESSAGES, {});
    expect(page.data?.reportConversationMessages.messages.at(-1)?.fromUser?.lastName).toHaveLength(1);
    expect((await reporter.gql<{ reportConversationReadMessages: number }>(READ, { ids: [reply.data!.reportConversationSendMessage.id] })).data?.reportConversationReadMessages).toBe(1);
    expect((await reporter.gql<{ reporterSubmission: { unreadMessages: number } }>(UNREAD)).data?.reporterSubmission.unreadMessages).toBe(0);
  });

  test("history pages 10 at a time", async () => {
    for (let i = 0; i < 12; i += 1) await reporter.gql(SEND, { text: `Message ${i}` });
    const first = await reporter.gql<Page>(MESSAGES, {});
    expect(first.data?.reportConversationMessages.messages).toHaveLength(10);
    expect(first.data?.reportConversationMessages.hasMore).toBe(true);
    const older = await reporter.gql<Page>(MESSAGES, { before: first.data!.reportConversationMessages.messages[0]!.id });
    expect(older.data?.reportConversationMessages.messages.length).toBe(4);
    expect(older.data?.reportConversationMessages.hasMore).toBe(false);
  });

  test("a closed report's conversation takes no reporter messages", async () => {
    const [closed] = await server.db
      .select({ reportId: reportSubmissions.reportId })
      .from(reportSubmissions)
      .innerJoin(organisations, eq(organisations.id, reportSubmissions.organisationId))
      .where(and(eq(organisations.slug, "demo"), eq(reportSubmissions.status, "Substantiated")));
    const former = new ReporterClient(server, "demo.localhost");
    expect((await former.post("/api/auth/report_login", { reportID: closed!.reportId, password: DEMO_REPORT_PASSWORD })).status).toBe(200);
    expect((await former.gql<{ reporterSubmission: { conversationClosed: boolean } }>(UNREAD)).data?.reporterSubmission.conversationClosed).toBe(true);
    expect((await former.gql(SEND, { text: "Anyone there?" })).errors?.[0]?.message).toBe("This conversation is closed");
  });
});

describe("enquiries", () => {
  const ENQUIRY = `mutation ($org: ID!, $message: String!) { guestSendEnquiry(organisationID: $org, message: $message) { reportID pin } }`;
  const orgId = async (slug: string) => (await server.db.select().from(organisations).where(eq(organisations.slug, slug)))[0]!.id;

  test("a visitor's question becomes a report they can follow up", async () => {
    const visitor = new ReporterClient(server, "demo.localhost");
    const sent = await visitor.gql<{ guestSendEnquiry: { reportID: string; pin: string } }>(ENQUIRY, { org: await orgId("demo"), message: "Is reporting anonymous?" });
    const { reportID, pin } = sent.data!.guestSendEnquiry;
    expect(reportID).toMatch(/^\w{5}-\w{5}$/);
    const follow = new ReporterClient(server, "demo.localhost");
    expect((await follow.post("/api/auth/report_login", { reportID, password: pin })).status).toBe(200);
    const messages = await follow.gql<Page>(MESSAGES, {});
    expect(messages.data?.reportConversationMessages.messages.map((m) => m.message)).toEqual(["Is reporting anonymous?"]);
    const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, reportID));
    expect(row).toMatchObject({ status: "New", completed: true });
  });

  test("refused when empty, when the organisation takes no enquiries, or from another organisation's host", async () => {
    const visitor = new ReporterClient(server, "demo.localhost");
    expect((await visitor.gql(ENQUIRY, { org: await orgId("demo"), message: " " })).errors?.[0]?.message).toBe("Required");
    expect((await visitor.gql(ENQUIRY, { org: await orgId("northwind"), message: "Hello" })).errors?.[0]?.message).toBe("Organisation was not found or is currently suspended.");
    const northwind = new ReporterClient(server, "northwind.localhost");
    expect((await northwind.gql(ENQUIRY, { org: await orgId("northwind"), message: "Hello" })).errors?.[0]?.message).toBe("This organisation does not take enquiries.");
  });
});

describe("a reporter's socket", () => {
  test("is closed at the next keep-alive once the reporter has left", async () => {
    const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
    const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets);
    const leaving = new ReporterClient(server, "demo.localhost");
    await leaving.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword });
    const socket = new WebSocket(`ws://127.0.0.1:${server.port}/api/gql/query`, { protocols: ["graphql-transport-ws"], headers: { Cookie: leaving.cookie, Host: `demo.localhost:${server.port}` } } as unknown as string[]);
    const closed = new Promise<number>((resolve) => (socket.onclose = (event) => resolve(event.code)));
    await new Promise((resolve) => (socket.onopen = resolve));
    socket.send(JSON.stringify({ type: "connection_init" }));
    await leaving.post("/api/auth/report_finish", { reportFormID: form.id });
    expect(await closed).toBe(4401);
  }, 20_000);
});
