import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Client } from "graphql-ws";
import { reportConversations, reportSubmissions } from "../../../db/schema/index.ts";
import { startDemoWithStaff } from "../../helpers/demo.ts";
import type { TestServer } from "../../helpers/server.ts";
import { anonymous, joinTeam, type DemoStaff, type StaffClient } from "../../helpers/session.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { collect, wsClient } from "../../helpers/websocket.ts";
import { holdsWithin } from "../../helpers/holds-within.ts";

let server: TestServer;
let as: DemoStaff;
let northwind: StaffClient;
let reporter: ReporterClient;
let submissionId: string;
const clients: Client[] = [];

beforeAll(async () => {
  ({ server, as, northwind } = await startDemoWithStaff());
  const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
  const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets);
  reporter = new ReporterClient(server, "demo.localhost");
  await reporter.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword });
  submissionId = (await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID)))[0]!.id;
  await joinTeam(as.admin, submissionId);
}, 30_000);
afterAll(async () => {
  for (const client of clients) await client.dispose();
  await server.stop();
});

const STATUS = `mutation ($id: ID, $status: PresenceStatus!) { reportConversationUpdateUserStatus(reportSubmissionID: $id, status: $status) }`;
const WATCH = `subscription ($id: ID) { reportConversation(reportSubmissionID: $id) { otherUserStatus lastSeenAt lastTypedAt } }`;
type Presence = { otherUserStatus: string; lastSeenAt: string | null; lastTypedAt: string | null };
type Result = { data?: { reportConversation: Presence }; errors?: { message: string }[] };

function watch(cookie: string, count: number, variables: Record<string, unknown> = {}, host?: string) {
  const client = wsClient(server, cookie, host ? { host } : {});
  clients.push(client);
  return { client, live: collect<Result>(client, WATCH, count, variables) };
}

const until = (check: () => boolean, ms = 1_000) => holdsWithin(check, ms);

const conversation = async () => (await server.db.select().from(reportConversations).where(eq(reportConversations.submissionId, submissionId)))[0]!;
const statuses = (live: { results: Result[] }) => live.results.map((r) => r.data?.reportConversation.otherUserStatus);

describe("chat presence", () => {
  test("staff see the reporter go Typing, then Online, then Offline when the reporter's socket closes", async () => {
    const staff = watch(as.admin.cookie, 4, { id: submissionId });
    expect(await until(() => staff.live.results.length === 1, 5_000)).toBe(true);
    expect(staff.live.results[0]!.data!.reportConversation).toEqual({ otherUserStatus: "Offline", lastSeenAt: null, lastTypedAt: null });
    // The reporter's page: its socket watches the staff side.
    const page = watch(reporter.cookie, 1, {}, "demo.localhost");
    await page.live.done;
    expect(statuses(page.live)).toEqual(["Offline"]);

    expect((await reporter.gql(STATUS, { status: "Typing" })).data).toEqual({ reportConversationUpdateUserStatus: true });
    expect(await until(() => staff.live.results.length === 2)).toBe(true);
    expect(staff.live.results[1]!.data!.reportConversation.lastTypedAt).not.toBeNull();
    await reporter.gql(STATUS, { status: "Online" });
    expect(await until(() => staff.live.results.length === 3)).toBe(true);
    const rows = await as.admin.gql<{ reportConversations: { list: { submission: { id: string }; otherUserStatus: string }[] } }>(
      `{ reportConversations(limit: 100) { list { submission { id } otherUserStatus } } }`,
    );
    expect(rows.data!.reportConversations.list.find((item) => item.submission.id === submissionId)?.otherUserStatus).toBe("Online");

    await page.client.dispose();
    expect(await until(() => staff.live.results.length === 4)).toBe(true);
    expect(statuses(staff.live)).toEqual(["Offline", "Typing", "Online", "Offline"]);
    expect((await conversation()).guestStatus).toBe("Offline");
    staff.live.dispose();
  });

  test("the reporter sees the staff side's presence", async () => {
    const page = watch(reporter.cookie, 2, {}, "demo.localhost");
    expect(await until(() => page.live.results.length === 1, 5_000)).toBe(true);
    await as.admin.gql(STATUS, { id: submissionId, status: "Typing" });
    await page.live.done;
    expect(statuses(page.live).at(-1)).toBe("Typing");
    expect((await conversation()).staffStatus).toBe("Typing");
    page.live.dispose();
    await as.admin.gql(STATUS, { id: submissionId, status: "Online" });
  });

  test("repeated Typing within 2 seconds is neither written nor announced", async () => {
    await reporter.gql(STATUS, { status: "Online" });
    const staff = watch(as.admin.cookie, 10, { id: submissionId });
    expect(await until(() => staff.live.results.length === 1, 5_000)).toBe(true);
    await reporter.gql(STATUS, { status: "Typing" });
    const typedAt = (await conversation()).guestLastTypedAt!;
    for (let i = 0; i < 5; i += 1) expect((await reporter.gql(STATUS, { status: "Typing" })).data).toEqual({ reportConversationUpdateUserStatus: true });
    await Bun.sleep(300);
    expect(statuses(staff.live)).toEqual(["Online", "Typing"]);
    expect((await conversation()).guestLastTypedAt).toEqual(typedAt);
    // Once the window has passed, typing is news again.
    await server.db.update(reportConversations).set({ guestLastTypedAt: new Date(Date.now() - 2_500) }).where(eq(reportConversations.submissionId, submissionId));
    await reporter.gql(STATUS, { status: "Typing" });
    expect(await until(() => staff.live.results.length === 3)).toBe(true);
    staff.live.dispose();
  });

  test("denied: staff off the team cannot set presence; other organisations and anonymous callers cannot reach it", async () => {
    expect((await as.owner.gql(STATUS, { id: submissionId, status: "Online" })).errors?.[0]?.message).toBe("Only members of the report team can reply.");
    expect((await northwind.gql(STATUS, { id: submissionId, status: "Online" })).errors?.[0]?.message).toBe("Report Submission is not found");
    expect((await as.member.gql(STATUS, { id: submissionId, status: "Online" })).errors?.[0]?.message).toBe("Report Submission is not found");
    expect((await anonymous(server).gql(STATUS, { id: submissionId, status: "Online" })).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    const other = watch(northwind.cookie, 1, { id: submissionId });
    const member = watch(as.member.cookie, 1, { id: submissionId });
    await Promise.all([other.live.done, member.live.done]);
    expect(other.live.results[0]?.errors?.[0]?.message).toBe("Report Submission is not found");
    expect(member.live.results[0]?.errors?.[0]?.message).toBe("Report Submission is not found");
  });
});
