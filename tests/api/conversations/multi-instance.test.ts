import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Client } from "graphql-ws";
import { reportSubmissions } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { usingPostgres } from "../../setup/template.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { joinTeam, loginAs, type StaffClient } from "../../helpers/session.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { collect, wsClient } from "../../helpers/websocket.ts";
import { holdsWithin } from "../../helpers/holds-within.ts";

/**
 * Two instances on one Postgres database: events travel by LISTEN/NOTIFY, so a message written
 * through one instance reaches subscribers connected to the other. (PGlite is one process's.)
 */
let first: TestServer;
let second: TestServer;
let reporter: ReporterClient;
let adminOnSecond: StaffClient;
let submissionId: string;
const clients: Client[] = [];

beforeAll(async () => {
  if (!usingPostgres()) return;
  first = await startTestServer();
  await seedDemo(first.db);
  second = await startTestServer({ databaseUrl: first.databaseUrl! });
  const { form, widgets } = await demoForm(first, "demo", "Workplace Misconduct Report");
  const credentials = await submitReport(new ReporterClient(first, "demo.localhost"), form.id, widgets);
  reporter = new ReporterClient(first, "demo.localhost");
  await reporter.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword });
  submissionId = (await first.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID)))[0]!.id;
  adminOnSecond = await loginAs(second, "admin@demo.test", DEMO_PASSWORD);
  await joinTeam(adminOnSecond, submissionId);
}, 60_000);
afterAll(async () => {
  if (!usingPostgres()) return;
  for (const client of clients) await client.dispose();
  // The second instance only borrows the first one's database, so it goes first.
  await second.stop();
  await first.stop();
});

const SEND = `mutation ($id: ID, $text: String!) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $text }) { id } }`;
const MESSAGES = `subscription ($id: ID) { reportConversationMessage(reportSubmissionID: $id) { action message { message from } } }`;
type MessageEvent = { data?: { reportConversationMessage: { action: string; message: { message: string; from: string } } } };


describe.if(usingPostgres())("two server instances on one database", () => {
  test("a reporter's message sent through one instance reaches staff subscribed on the other within a second", async () => {
    const ws = wsClient(second, adminOnSecond.cookie);
    clients.push(ws);
    const live = collect<MessageEvent>(ws, MESSAGES, 1, { id: submissionId });
    const events = collect<{ data?: { reportConversations: { action: string } } }>(ws, `subscription { reportConversations { submissionId action } }`, 1);
    await Bun.sleep(300);
    expect((await reporter.gql(SEND, { text: "Sent through the first instance" })).errors).toBeUndefined();
    const sentAt = Date.now();
    expect(await holdsWithin(() => live.results.length === 1 && events.results.length === 1, 1_000)).toBe(true);
    expect(Date.now() - sentAt).toBeLessThan(1_000);
    expect(live.results[0]!.data!.reportConversationMessage).toEqual({ action: "new", message: { message: "Sent through the first instance", from: "Guest" } });
    expect(events.results[0]!.data!.reportConversations.action).toBe("message");
    live.dispose();
    events.dispose();
  });

  test("a staff reply through the second instance reaches the reporter's socket on the first", async () => {
    const ws = wsClient(first, reporter.cookie, { host: "demo.localhost" });
    clients.push(ws);
    const live = collect<MessageEvent>(ws, `subscription { reportConversationMessage { action message { message from } } }`, 1);
    await Bun.sleep(300);
    expect((await adminOnSecond.gql(SEND, { id: submissionId, text: "Answered from the second instance" })).errors).toBeUndefined();
    expect(await holdsWithin(() => live.results.length === 1, 1_000)).toBe(true);
    expect(live.results[0]!.data!.reportConversationMessage.message).toEqual({ message: "Answered from the second instance", from: "User" });
    live.dispose();
  });
});
