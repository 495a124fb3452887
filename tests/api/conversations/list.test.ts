import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Client } from "graphql-ws";
import { reportConversationMessages, reportConversations, reportForms, reportSubmissionAssignees, reportSubmissions, users } from "../../../db/schema/index.ts";
import { DEMO_REPORT_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import type { TestServer } from "../../helpers/server.ts";
import { anonymous, type DemoStaff, type StaffClient } from "../../helpers/session.ts";
import { ReporterClient } from "../../helpers/reporter.ts";
import { collect, wsClient } from "../../helpers/websocket.ts";
import { openedText } from "../../helpers/sealed-text.ts";
import { startDemoWithStaff } from "../../helpers/demo.ts";

let server: TestServer;
let as: DemoStaff;
let northwind: StaffClient;
let demoId: string;
let northwindId: string;
let memberId: string;
const clients: Client[] = [];

beforeAll(async () => {
  ({ server, as, northwind, demoId, northwindId } = await startDemoWithStaff());
  memberId = (await server.db.select().from(users).where(eq(users.email, "member@demo.test")))[0]!.id;
}, 30_000);
afterAll(async () => {
  for (const client of clients) await client.dispose();
  await server.stop();
});

const LIST = `query ($search: String, $organisationID: ID, $priority: Priority, $sortBy: ConversationSortKey, $sortDir: SortDirection, $limit: Int, $offset: Int) {
  reportConversations(search: $search, organisationID: $organisationID, priority: $priority, sortBy: $sortBy, sortDir: $sortDir, limit: $limit, offset: $offset) {
    total list { id createdAt concluded closed unreadMessages otherUserStatus lastSeenAt
      submission { id reportID priority status unreadMessages }
      lastMessage { type message from fromUser { firstName lastName } createdAt } } } }`;

interface Item {
  id: string;
  createdAt: string;
  concluded: boolean;
  closed: boolean;
  unreadMessages: number;
  otherUserStatus: string;
  submission: { id: string; reportID: string; priority: "Low" | "Medium" | "High"; status: string; unreadMessages: number };
  lastMessage: { type: string; message: string; from: string; fromUser: { firstName: string } | null; createdAt: string } | null;
}
type ListResult = { reportConversations: { total: number; list: Item[] } };

async function list(client: StaffClient, variables: Record<string, unknown> = {}) {
  const result = await client.gql<ListResult>(LIST, variables);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data!.reportConversations;
}

/** The chats of an organisation's visible reports, straight from the tables. */
async function chatsOf(organisationId: string) {
  return server.db
    .select({ conversation: reportConversations, submission: reportSubmissions })
    .from(reportConversations)
    .innerJoin(reportSubmissions, eq(reportSubmissions.id, reportConversations.submissionId))
    .innerJoin(reportForms, eq(reportForms.id, reportSubmissions.formId))
    .where(and(eq(reportConversations.organisationId, organisationId), eq(reportSubmissions.completed, true), isNull(reportSubmissions.deletedAt), eq(reportForms.hasChat, true)));
}

const RANK = { Low: 0, Medium: 1, High: 2 } as const;
const time = (value: string | null | undefined) => (value ? Date.parse(value) : null);
const lastAt = async (ids: string[]) => new Map((await server.db.select().from(reportConversations).where(inArray(reportConversations.id, ids))).map((c) => [c.id, c.lastMessageAt?.getTime() ?? null]));

describe("reportConversations query", () => {
  test("allowed: an owner gets every chat of the organisation, newest last message first, empty chats last", async () => {
    const all = await list(as.owner, { limit: 100 });
    const expected = await chatsOf(demoId);
    expect(all.total).toBe(expected.length);
    expect(new Set(all.list.map((item) => item.submission.id))).toEqual(new Set(expected.map((row) => row.submission.id)));
    const times = await lastAt(all.list.map((item) => item.id));
    const ordered = all.list.map((item) => times.get(item.id) ?? null);
    const withMessages = ordered.filter((t) => t !== null) as number[];
    expect(withMessages).toEqual([...withMessages].sort((a, b) => b - a));
    expect(ordered.slice(withMessages.length).every((t) => t === null)).toBe(true);
  });

  test("each row carries the report, its newest message, unread count, presence and closed state", async () => {
    const all = await list(as.owner, { limit: 100 });
    const expected = await chatsOf(demoId);
    for (const item of all.list) {
      const row = expected.find((r) => r.conversation.id === item.id)!;
      const [newest] = await server.db
        .select()
        .from(reportConversationMessages)
        .where(eq(reportConversationMessages.conversationId, item.id))
        .orderBy(desc(reportConversationMessages.createdAt))
        .limit(1);
      // Stored sealed: compared with what it opens to.
      expect(item.lastMessage?.message ?? null).toBe(newest ? await openedText(server, newest.organisationId, "message", newest.message) : null);
      expect(item.unreadMessages).toBe(item.submission.unreadMessages);
      expect(item.closed).toBe(!["New", "Assigned"].includes(row.submission.status) || row.submission.archived);
      expect(item.concluded).toBe(row.conversation.concluded);
      // The seeded reporters were last seen days ago: stale presence reads Offline.
      expect(item.otherUserStatus).toBe("Offline");
    }
    expect(all.list.some((item) => item.lastMessage?.from === "User" && item.lastMessage.fromUser !== null)).toBe(true);
    expect(all.list.some((item) => item.closed)).toBe(true);
  });

  test("sorts by priority (High first, then last message), by creation date, in either direction", async () => {
    const byPriority = (await list(as.owner, { sortBy: "Priority", limit: 100 })).list;
    const ranks = byPriority.map((item) => RANK[item.submission.priority]);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    const times = await lastAt(byPriority.map((item) => item.id));
    for (let i = 1; i < byPriority.length; i += 1) {
      if (ranks[i] !== ranks[i - 1]) continue;
      const [before, after] = [times.get(byPriority[i - 1]!.id) ?? null, times.get(byPriority[i]!.id) ?? null];
      if (after !== null) expect(before === null ? -1 : before).toBeGreaterThanOrEqual(after);
    }
    const ascending = (await list(as.owner, { sortBy: "DateCreated", sortDir: "Ascending", limit: 100 })).list.map((item) => time(item.createdAt)!);
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    const descending = (await list(as.owner, { sortBy: "DateCreated", limit: 100 })).list.map((item) => time(item.createdAt)!);
    expect(descending).toEqual([...ascending].reverse());
  });

  test("filters by priority and searches the report ID; pages 20 by default, invalid limits fall back to 20", async () => {
    const high = await list(as.owner, { priority: "High" });
    expect(high.total).toBeGreaterThan(0);
    expect(high.list.every((item) => item.submission.priority === "High")).toBe(true);
    const one = (await list(as.owner)).list[0]!;
    const found = await list(as.owner, { search: one.submission.reportID.slice(2, 8).toLowerCase() });
    expect(found.list.map((item) => item.id)).toContain(one.id);
    expect(found.list.every((item) => item.submission.reportID.toLowerCase().includes(one.submission.reportID.slice(2, 8).toLowerCase()))).toBe(true);
    expect((await list(as.owner, { search: "%" })).total).toBe(0);
    const first = await list(as.owner, { limit: 2 });
    const second = await list(as.owner, { limit: 2, offset: 2 });
    expect(first.list).toHaveLength(2);
    expect(second.list.map((i) => i.id).filter((id) => first.list.some((f) => f.id === id))).toEqual([]);
    // More chats than a page, in Northwind: 20 is then visibly the default.
    const [form] = await server.db.select().from(reportForms).where(and(eq(reportForms.organisationId, northwindId), eq(reportForms.hasChat, true))).limit(1);
    const extra = await server.db
      .insert(reportSubmissions)
      .values(Array.from({ length: 21 }, (_, i) => ({ organisationId: northwindId, formId: form!.id, reportId: `PAGE${String(i).padStart(2, "0")}-LIST0`, status: "New" as const, completed: true, completedAt: new Date() })))
      .returning({ id: reportSubmissions.id });
    await server.db.insert(reportConversations).values(extra.map((row) => ({ submissionId: row.id, organisationId: northwindId })));
    const many = await list(northwind, { limit: 100 });
    expect(many.total).toBeGreaterThan(20);
    for (const limit of [null, 0, -1, 100_000]) expect((await list(northwind, { limit })).list.length).toBe(20);
    expect((await list(northwind, { offset: -5 })).list.map((i) => i.id)).toEqual((await list(northwind)).list.map((i) => i.id));
  });

  test("searching a whole report ID finds its chat however it is typed: short bits and the ID without its dash", async () => {
    const one = (await list(as.owner)).list[0]!;
    const id = one.submission.reportID;
    for (const search of [id.replace("-", ""), id.toLowerCase().replace("-", " "), id.slice(0, 2)]) {
      const found = await list(as.owner, { search, limit: 100 });
      expect(found.list.map((item) => item.id)).toContain(one.id);
    }
    expect((await list(as.owner, { search: id.replace("-", "").slice(1) })).total).toBe(0);
  });

  test("members and guest members get only the chats of their team's reports", async () => {
    const team = new Set((await server.db.select().from(reportSubmissionAssignees).where(eq(reportSubmissionAssignees.userId, memberId))).map((row) => row.submissionId));
    const mine = await list(as.member, { limit: 100 });
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.list.every((item) => team.has(item.submission.id))).toBe(true);
    const guest = await list(as.guest, { limit: 100 });
    expect(guest.total).toBeLessThan((await chatsOf(demoId)).length);
  });

  test("a super admin sees every organisation, or the one named", async () => {
    const all = await list(as.superAdmin, { limit: 100 });
    expect(all.total).toBe((await chatsOf(demoId)).length + (await chatsOf(northwindId)).length);
    expect((await list(as.superAdmin, { organisationID: northwindId })).total).toBe((await chatsOf(northwindId)).length);
  });

  test("denied: another organisation's chats are not found; anonymous callers and reporters are refused", async () => {
    const theirs = await list(northwind, { limit: 100 });
    const demo = new Set((await chatsOf(demoId)).map((row) => row.submission.id));
    expect(theirs.list.some((item) => demo.has(item.submission.id))).toBe(false);
    expect((await northwind.gql(LIST, { organisationID: demoId })).errors?.[0]?.message).toBe("Organisation is not found");
    expect((await anonymous(server).gql(LIST)).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    const [report] = (await chatsOf(demoId)).filter((row) => row.submission.status === "New");
    const reporter = new ReporterClient(server, "demo.localhost");
    await reporter.post("/api/auth/report_login", { reportID: report!.submission.reportId, password: DEMO_REPORT_PASSWORD });
    expect((await reporter.gql(LIST)).errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });
});

describe("reportConversations subscription", () => {
  const EVENTS = `subscription ($organisationID: ID) { reportConversations(organisationID: $organisationID) { submissionId action } }`;
  const SEND = `mutation ($text: String!) { reportConversationSendMessage(input: { type: Text, message: $text }) { id } }`;
  const STATUS = `mutation ($status: PresenceStatus!) { reportConversationUpdateUserStatus(status: $status) }`;
  type Event = { data?: { reportConversations: { submissionId: string; action: string } }; errors?: { message: string }[] };

  test("tells the organisation's staff which chat changed; members only about their team's; Northwind nothing", async () => {
    const team = new Set((await server.db.select().from(reportSubmissionAssignees).where(eq(reportSubmissionAssignees.userId, memberId))).map((row) => row.submissionId));
    const chats = await chatsOf(demoId);
    const mine = chats.find((row) => row.submission.status === "Assigned" && team.has(row.submission.id))!;
    const notMine = chats.find((row) => row.submission.status === "New" && !team.has(row.submission.id))!;
    const watch = (client: StaffClient, count: number) => {
      const ws = wsClient(server, client.cookie);
      clients.push(ws);
      return collect<Event>(ws, EVENTS, count);
    };
    const owner = watch(as.owner, 3);
    const member = watch(as.member, 2);
    const other = watch(northwind, 1);
    await Bun.sleep(300);
    const reporterOf = async (reportId: string | null) => {
      const reporter = new ReporterClient(server, "demo.localhost");
      await reporter.post("/api/auth/report_login", { reportID: reportId, password: DEMO_REPORT_PASSWORD });
      return reporter;
    };
    const [onTeam, offTeam] = [await reporterOf(mine.submission.reportId), await reporterOf(notMine.submission.reportId)];
    expect((await onTeam.gql(SEND, { text: "Any news?" })).errors).toBeUndefined();
    expect((await offTeam.gql(SEND, { text: "Hello?" })).errors).toBeUndefined();
    expect((await onTeam.gql(STATUS, { status: "Online" })).errors).toBeUndefined();
    await Promise.all([owner.done, member.done]);
    const events = (live: typeof owner) => live.results.map((r) => `${r.data?.reportConversations.submissionId}:${r.data?.reportConversations.action}`).sort();
    expect(events(owner)).toEqual([`${mine.submission.id}:message`, `${mine.submission.id}:presence`, `${notMine.submission.id}:message`].sort());
    await Bun.sleep(300);
    expect(events(member)).toEqual([`${mine.submission.id}:message`, `${mine.submission.id}:presence`]);
    expect(other.results).toHaveLength(0);
    for (const live of [owner, member, other]) live.dispose();
  });

  test("denied: another organisation is not found", async () => {
    const ws = wsClient(server, northwind.cookie);
    clients.push(ws);
    const live = collect<Event>(ws, EVENTS, 1, { organisationID: demoId });
    await live.done;
    expect(live.results[0]?.errors?.[0]?.message).toBe("Organisation is not found");
  });
});
