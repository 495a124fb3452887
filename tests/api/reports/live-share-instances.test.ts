import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import type { Client } from "graphql-ws";
import { reportConversations, reportSubmissions } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD, DEMO_REPORT_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { liveChannelsOf } from "../../../api/modules/reports/live-share.ts";
import { usingPostgres } from "../../setup/template.ts";
import { demoOrganisationIds } from "../../helpers/demo.ts";
import { ReporterClient } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { loginAs, type StaffClient } from "../../helpers/session.ts";
import { collect, wsClient } from "../../helpers/websocket.ts";
import { holdsWithin } from "../../helpers/holds-within.ts";

/**
 * Two instances on one Postgres database (PGlite is one process's): each shares live values among
 * its own subscribers only, and both hear an event written through either, by LISTEN/NOTIFY.
 */
let first: TestServer;
let second: TestServer;
let ownerOnFirst: StaffClient;
let ownerOnSecond: StaffClient;
let reportId: string;
const sockets: Client[] = [];

beforeAll(async () => {
  if (!usingPostgres()) return;
  first = await startTestServer();
  await seedDemo(first.db);
  second = await startTestServer({ databaseUrl: first.databaseUrl! });
  ownerOnFirst = await loginAs(first, "owner@demo.test", DEMO_PASSWORD);
  ownerOnSecond = await loginAs(second, "owner@demo.test", DEMO_PASSWORD);
  const { demoId } = await demoOrganisationIds(first);
  const [chat] = await first.db
    .select({ reportId: reportSubmissions.reportId })
    .from(reportConversations)
    .innerJoin(reportSubmissions, eq(reportSubmissions.id, reportConversations.submissionId))
    .where(and(eq(reportSubmissions.organisationId, demoId), eq(reportSubmissions.status, "New")));
  reportId = chat!.reportId!;
}, 60_000);
afterAll(async () => {
  if (!usingPostgres()) return;
  for (const socket of sockets) await socket.dispose();
  // The second instance only borrows the first one's database, so it goes first.
  await second.stop();
  await first.stop();
});

const ORGANISATION_STATS = `subscription { organisationUserStats { unreadMessages unassignedReports } }`;
const EVENTS = `subscription { reportConversations { submissionId action } }`;
const SEND = `mutation ($text: String!) { reportConversationSendMessage(input: { type: Text, message: $text }) { id } }`;
type Counts = { data?: { organisationUserStats: { unreadMessages: number } } };


const channelsOf = (server: TestServer) => liveChannelsOf(server.lantern.services.pubsub).list().filter((channel) => channel.name === "organisationUserStats");

describe.if(usingPostgres())("shared live values over two instances", () => {
  test("a reporter's message through the first instance updates the owner's tabs on both, each instance computing once for its own; the Conversations page hears it too", async () => {
    const subscribe = (server: TestServer, owner: StaffClient) => {
      const socket = wsClient(server, owner.cookie);
      sockets.push(socket);
      return collect<Counts>(socket, ORGANISATION_STATS, 2);
    };
    const onFirst = subscribe(first, ownerOnFirst);
    const onSecond = [subscribe(second, ownerOnSecond), subscribe(second, ownerOnSecond)];
    const all = [onFirst, ...onSecond];
    const eventsSocket = wsClient(second, ownerOnSecond.cookie);
    sockets.push(eventsSocket);
    const events = collect<{ data?: { reportConversations: { action: string } } }>(eventsSocket, EVENTS, 1);
    expect(await holdsWithin(() => all.every((live) => live.results.length === 1) && channelsOf(second)[0]?.members === 2 && channelsOf(first)[0]?.members === 1, 5_000)).toBe(true);
    const start = onFirst.results[0]!.data!.organisationUserStats.unreadMessages;
    const computed = (server: TestServer) => channelsOf(server).map((channel) => channel.computations);
    const [firstBefore, secondBefore] = [computed(first)[0]!, computed(second)[0]!];

    const reporter = new ReporterClient(first, "demo.localhost");
    await reporter.post("/api/auth/report_login", { reportID: reportId, password: DEMO_REPORT_PASSWORD });
    expect((await reporter.gql(SEND, { text: "Can anyone hear me?" })).errors).toBeUndefined();
    expect(await holdsWithin(() => all.every((live) => live.results.length === 2) && events.results.length === 1, 2_000)).toBe(true);
    expect(events.results[0]!.data!.reportConversations.action).toBe("message");
    for (const live of all) expect(live.results[1]!.data!.organisationUserStats.unreadMessages).toBe(start + 1);
    expect(computed(first)).toEqual([firstBefore + 1]);
    expect(computed(second)).toEqual([secondBefore + 1]);

    for (const live of [...all, events]) live.dispose();
    const open = (server: TestServer) => liveChannelsOf(server.lantern.services.pubsub).list().length;
    expect(await holdsWithin(() => open(first) === 0 && open(second) === 0, 2_000)).toBe(true);
  });
});
