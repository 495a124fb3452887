import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import type { Client } from "graphql-ws";
import { reportConversations, reportSubmissionAssignees, reportSubmissions, users } from "../../../db/schema/index.ts";
import { DEMO_REPORT_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { liveChannelsOf } from "../../../api/modules/reports/live-share.ts";
import { startDemoWithStaff } from "../../helpers/demo.ts";
import { ReporterClient } from "../../helpers/reporter.ts";
import type { TestServer } from "../../helpers/server.ts";
import { type DemoStaff, type StaffClient } from "../../helpers/session.ts";
import { collect, wsClient } from "../../helpers/websocket.ts";
import { holdsWithin } from "../../helpers/holds-within.ts";

/**
 * Open console tabs share their live numbers: tabs whose query is the same get the value of one
 * computation per burst of events, and tabs of different scopes (an owner and a member not on the
 * team, two organisations, a super admin naming one) each get their own, never another's.
 */

let server: TestServer;
let as: DemoStaff;
let northwind: StaffClient;
let demoId: string;
let northwindId: string;
/** A Demo report with a chat whose team has the member on it, and one whose team does not. */
let onTeam: { submissionId: string; reportId: string };
let offTeam: { submissionId: string; reportId: string };
const sockets: Client[] = [];

beforeAll(async () => {
  ({ server, as, northwind, demoId, northwindId } = await startDemoWithStaff());
  const [member] = await server.db.select().from(users).where(eq(users.email, "member@demo.test"));
  const team = new Set((await server.db.select().from(reportSubmissionAssignees).where(eq(reportSubmissionAssignees.userId, member!.id))).map((row) => row.submissionId));
  const chats = await server.db
    .select({ submissionId: reportSubmissions.id, reportId: reportSubmissions.reportId, status: reportSubmissions.status })
    .from(reportConversations)
    .innerJoin(reportSubmissions, eq(reportSubmissions.id, reportConversations.submissionId))
    .where(and(eq(reportSubmissions.organisationId, demoId), eq(reportSubmissions.completed, true)));
  const pick = (row: (typeof chats)[number]) => ({ submissionId: row.submissionId, reportId: row.reportId! });
  onTeam = pick(chats.find((row) => row.status === "Assigned" && team.has(row.submissionId))!);
  offTeam = pick(chats.find((row) => row.status === "New" && !team.has(row.submissionId))!);
}, 30_000);
afterAll(async () => {
  for (const socket of sockets) await socket.dispose();
  await server.stop();
});

const ORGANISATION_STATS = `subscription ($organisationID: ID) { organisationUserStats(organisationID: $organisationID) { unreadMessages unassignedReports } }`;
const ORGANISATION_STATS_NOW = `query ($organisationID: ID) { organisationUserStats(organisationID: $organisationID) { unreadMessages unassignedReports } }`;
const REPORT_STATS = `subscription ($dateFilter: DateFilterInput) { reportStats(dateFilter: $dateFilter) { totalReports } }`;
const USER_STATS = `subscription { userStats { pendingInvites } }`;
const EVENTS = `subscription { reportConversations { submissionId action } }`;
const SEND = `mutation ($text: String!) { reportConversationSendMessage(input: { type: Text, message: $text }) { id } }`;

type Counts = { unreadMessages: number; unassignedReports: number };
type Result<T> = { data?: T | null; errors?: { message: string }[] };

function subscribe<T>(client: StaffClient, query: string, variables: Record<string, unknown> = {}, count = 10) {
  const socket = wsClient(server, client.cookie);
  sockets.push(socket);
  return collect<Result<T>>(socket, query, count, variables);
}

const until = (check: () => boolean, ms = 2_000) => holdsWithin(check, ms);

const channels = (name: string) => liveChannelsOf(server.lantern.services.pubsub).list().filter((channel) => channel.name === name);
const memberCounts = (name: string) => channels(name).map((channel) => channel.members).sort();
const computations = (name: string) => channels(name).reduce((sum, channel) => sum + channel.computations, 0);
const counts = (live: { results: Result<{ organisationUserStats: Counts }>[] }) => live.results.map((result) => result.data!.organisationUserStats);

async function reporterOf(reportId: string) {
  const reporter = new ReporterClient(server, "demo.localhost");
  await reporter.post("/api/auth/report_login", { reportID: reportId, password: DEMO_REPORT_PASSWORD });
  return reporter;
}

/** What the query (not the subscription) answers the same person now. */
async function countsNow(client: StaffClient, organisationID: string | null = null): Promise<Counts> {
  const result = await client.gql<{ organisationUserStats: Counts }>(ORGANISATION_STATS_NOW, { organisationID });
  return result.data!.organisationUserStats;
}

/** Every socket has gone: no channel is left open, so no listener or timer either. */
async function closeAll(lives: { dispose(): void }[]) {
  for (const live of lives) live.dispose();
  expect(await until(() => liveChannelsOf(server.lantern.services.pubsub).list().length === 0)).toBe(true);
}

describe("organisationUserStats, shared by scope", () => {
  test("three tabs of one organisation's managers get the same new value from one computation", async () => {
    const tabs = [subscribe<{ organisationUserStats: Counts }>(as.owner, ORGANISATION_STATS), subscribe<{ organisationUserStats: Counts }>(as.owner, ORGANISATION_STATS), subscribe<{ organisationUserStats: Counts }>(as.admin, ORGANISATION_STATS)];
    // Owners and admins see the same reports (decision 009), so their query is the same one.
    expect(await until(() => tabs.every((tab) => tab.results.length === 1) && memberCounts("organisationUserStats").join() === "3")).toBe(true);
    const start = counts(tabs[0]!)[0]!;
    const reporter = await reporterOf(offTeam.reportId);
    const before = computations("organisationUserStats");
    expect((await reporter.gql(SEND, { text: "Is anyone there?" })).errors).toBeUndefined();
    expect(await until(() => tabs.every((tab) => tab.results.length === 2))).toBe(true);
    for (const tab of tabs) expect(counts(tab)[1]).toEqual({ ...start, unreadMessages: start.unreadMessages + 1 });
    expect(counts(tabs[0]!)[1]).toEqual(await countsNow(as.owner));
    expect(computations("organisationUserStats") - before).toBe(1);
    await closeAll(tabs);
  });

  test("an owner, a member not on the team and Northwind's owner each get their own values; a super admin naming Demo gets Demo's", async () => {
    const owner = subscribe<{ organisationUserStats: Counts }>(as.owner, ORGANISATION_STATS);
    const member = subscribe<{ organisationUserStats: Counts }>(as.member, ORGANISATION_STATS);
    const superAdmin = subscribe<{ organisationUserStats: Counts }>(as.superAdmin, ORGANISATION_STATS, { organisationID: demoId });
    const other = subscribe<{ organisationUserStats: Counts }>(northwind, ORGANISATION_STATS);
    const lives = [owner, member, superAdmin, other];
    // The super admin naming Demo runs the very query Demo's owner runs (every Demo report), so they share.
    expect(await until(() => lives.every((live) => live.results.length === 1) && channels("organisationUserStats").length === 3)).toBe(true);
    expect(memberCounts("organisationUserStats")).toEqual([1, 1, 2]);
    expect(counts(superAdmin)[0]).toEqual(counts(owner)[0]!);
    expect(counts(member)[0]).toEqual(await countsNow(as.member));
    expect(counts(other)[0]).toEqual(await countsNow(northwind));

    // A message on a report the member is not on: the owner's and the super admin's counts move, the member's does not.
    await (await reporterOf(offTeam.reportId)).gql(SEND, { text: "Hello?" });
    expect(await until(() => owner.results.length === 2 && superAdmin.results.length === 2)).toBe(true);
    expect(counts(owner)[1]).toEqual(await countsNow(as.owner));
    expect(counts(superAdmin)[1]).toEqual(await countsNow(as.superAdmin, demoId));

    // One on the member's own report: now theirs moves too, to their own number, not the owner's.
    await (await reporterOf(onTeam.reportId)).gql(SEND, { text: "Any news?" });
    expect(await until(() => owner.results.length === 3 && member.results.length === 2)).toBe(true);
    const memberNow = await countsNow(as.member);
    expect(counts(member)).toEqual([counts(member)[0]!, memberNow]);
    expect(memberNow.unreadMessages).toBe(counts(member)[0]!.unreadMessages + 1);
    expect(counts(owner)[2]).toEqual(await countsNow(as.owner));
    expect(counts(owner)[2]!.unreadMessages).not.toBe(memberNow.unreadMessages);

    // Northwind heard none of it; its tab still holds its own first value.
    await Bun.sleep(300);
    expect(counts(other)).toEqual([await countsNow(northwind)]);
    expect(await countsNow(northwind, northwindId)).toEqual(counts(other)[0]!);
    await closeAll(lives);
  });
});

describe("the other live values", () => {
  test("reportStats: tabs with the same filter share; another date filter is its own computation", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const all = [subscribe(as.owner, REPORT_STATS), subscribe(as.admin, REPORT_STATS)];
    const filtered = subscribe(as.owner, REPORT_STATS, { dateFilter: { from: today, to: today } });
    expect(await until(() => [...all, filtered].every((live) => live.results.length === 1) && channels("reportStats").length === 2)).toBe(true);
    expect(memberCounts("reportStats")).toEqual([1, 2]);
    await closeAll([...all, filtered]);
  });

  test("userStats: a user's own tabs share; two users never do", async () => {
    const guestTabs = [subscribe(as.guest, USER_STATS), subscribe(as.guest, USER_STATS)];
    const memberTab = subscribe(as.member, USER_STATS);
    expect(await until(() => [...guestTabs, memberTab].every((live) => live.results.length === 1) && channels("userStats").length === 2)).toBe(true);
    expect(memberCounts("userStats")).toEqual([1, 2]);
    await closeAll([...guestTabs, memberTab]);
  });

  test("reportConversations: managers' pages share one check per burst; a member not on the team hears nothing of it", async () => {
    type Event = { reportConversations: { submissionId: string; action: string } };
    const managers = [subscribe<Event>(as.owner, EVENTS), subscribe<Event>(as.admin, EVENTS)];
    const member = subscribe<Event>(as.member, EVENTS);
    expect(await until(() => memberCounts("reportConversations").join() === "1,2")).toBe(true);
    const before = computations("reportConversations");
    await (await reporterOf(offTeam.reportId)).gql(SEND, { text: "Still waiting" });
    expect(await until(() => managers.every((live) => live.results.length === 1))).toBe(true);
    for (const live of managers) expect(live.results[0]!.data!.reportConversations).toEqual({ submissionId: offTeam.submissionId, action: "message" });
    await (await reporterOf(onTeam.reportId)).gql(SEND, { text: "Hello again" });
    expect(await until(() => member.results.length === 1 && managers.every((live) => live.results.length === 2))).toBe(true);
    expect(member.results.map((result) => result.data!.reportConversations.submissionId)).toEqual([onTeam.submissionId]);
    // Two bursts: the shared channel checked twice for both managers, the member's own channel twice for them.
    expect(computations("reportConversations") - before).toBe(4);
    await closeAll([...managers, member]);
  });
});
