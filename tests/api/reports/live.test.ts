import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import type { Client } from "graphql-ws";
import { reportSubmissions } from "../../../db/schema/index.ts";
import { LIVE_DEBOUNCE_MS, liveValue } from "../../../api/modules/reports/graphql-live.ts";
import { reportUpdatedTopic } from "../../../api/modules/reports/events.ts";
import type { TestServer } from "../../helpers/server.ts";
import { joinTeam, type DemoStaff, type StaffClient } from "../../helpers/session.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { collect, wsClient } from "../../helpers/websocket.ts";
import { startDemoWithStaff } from "../../helpers/demo.ts";
import { holdsWithin } from "../../helpers/holds-within.ts";

let server: TestServer;
let as: DemoStaff;
let northwind: StaffClient;
let demoId: string;
let northwindId: string;
const clients: Client[] = [];

beforeAll(async () => {
  ({ server, as, northwind, demoId, northwindId } = await startDemoWithStaff());
}, 30_000);
afterAll(async () => {
  for (const client of clients) await client.dispose();
  await server.stop();
});

const REPORT_STATS = `subscription ($organisationID: ID) { reportStats(organisationID: $organisationID) { totalReports newReports } }`;
const ORGANISATION_STATS = `subscription ($organisationID: ID) { organisationUserStats(organisationID: $organisationID) { unreadMessages unassignedReports } }`;
const USER_STATS = `subscription { userStats { guestOrganisationCount pendingInvites } }`;
const SEND = `mutation ($id: ID, $text: String!) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $text }) { id } }`;
const READ = `mutation ($id: ID, $ids: [ID!]!) { reportConversationReadMessages(reportSubmissionID: $id, messageIDs: $ids) }`;

type Result<T> = { data?: T | null; errors?: { message: string; extensions?: { code?: string } }[] };

function subscribe<T>(client: StaffClient | { cookie: string }, query: string, count: number, variables: Record<string, unknown> = {}, host?: string) {
  const ws = wsClient(server, client.cookie, host ? { host } : {});
  clients.push(ws);
  return collect<Result<T>>(ws, query, count, variables);
}

const until = (check: () => boolean, ms = 1_000) => holdsWithin(check, ms);

/** The first error of a subscription, whether it came as a result or as a transport error. */
const firstError = (live: { results: Result<unknown>[]; errors: unknown[] }) =>
  live.results[0]?.errors?.[0] ?? (live.errors[0] as { message: string; extensions?: { code?: string } }[] | undefined)?.[0];

async function newDemoReport(slug = "demo", formName = "Workplace Misconduct Report") {
  const { form, widgets } = await demoForm(server, slug, formName);
  const reporter = new ReporterClient(server, `${slug}.localhost`);
  const credentials = await submitReport(reporter, form.id, widgets);
  const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
  return { credentials, submissionId: row!.id };
}

describe("reportStats subscription", () => {
  test("sends the tiles at once, and the new count within a second of a report being completed", async () => {
    const live = subscribe<{ reportStats: { totalReports: number; newReports: number } }>(as.owner, REPORT_STATS, 2);
    expect(await until(() => live.results.length === 1, 5_000)).toBe(true);
    const before = live.results[0]!.data!.reportStats;
    await newDemoReport();
    const completedAt = Date.now();
    expect(await until(() => live.results.length === 2, 1_000)).toBe(true);
    expect(Date.now() - completedAt).toBeLessThan(1_000);
    expect(live.results[1]!.data!.reportStats).toEqual({ totalReports: before.totalReports + 1, newReports: before.newReports + 1 });
    live.dispose();
  });

  test("a super admin over every organisation hears any organisation's report; Northwind staff hear nothing of Demo", async () => {
    const all = subscribe<{ reportStats: { totalReports: number } }>(as.superAdmin, REPORT_STATS, 2);
    const other = subscribe<{ reportStats: { totalReports: number } }>(northwind, REPORT_STATS, 2);
    expect(await until(() => all.results.length === 1 && other.results.length === 1, 5_000)).toBe(true);
    await newDemoReport();
    expect(await until(() => all.results.length === 2)).toBe(true);
    expect(all.results[1]!.data!.reportStats.totalReports).toBe(all.results[0]!.data!.reportStats.totalReports + 1);
    await Bun.sleep(LIVE_DEBOUNCE_MS * 3);
    expect(other.results).toHaveLength(1);
    all.dispose();
    other.dispose();
  });

  test("denied: another organisation is not found, guest members are forbidden, anonymous callers unauthenticated", async () => {
    const named = subscribe(northwind, REPORT_STATS, 1, { organisationID: demoId });
    const guest = subscribe(as.guest, REPORT_STATS, 1);
    const nobody = subscribe({ cookie: "" }, REPORT_STATS, 1);
    await Promise.all([named.done, guest.done, nobody.done]);
    expect(firstError(named)?.message).toBe("Organisation is not found");
    expect(firstError(guest)?.extensions?.code).toBe("FORBIDDEN");
    expect(firstError(nobody)?.extensions?.code).toBe("UNAUTHENTICATED");
  });
});

describe("organisationUserStats subscription", () => {
  test("unassigned and unread badges follow new reports, reporter messages and staff reading them", async () => {
    const live = subscribe<{ organisationUserStats: { unreadMessages: number; unassignedReports: number } }>(as.admin, ORGANISATION_STATS, 4, { organisationID: demoId });
    expect(await until(() => live.results.length === 1, 5_000)).toBe(true);
    const start = live.results[0]!.data!.organisationUserStats;
    const { credentials, submissionId } = await newDemoReport();
    expect(await until(() => live.results.length === 2)).toBe(true);
    expect(live.results[1]!.data!.organisationUserStats).toEqual({ ...start, unassignedReports: start.unassignedReports + 1 });

    const reporter = new ReporterClient(server, "demo.localhost");
    await reporter.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword });
    const sent = await reporter.gql<{ reportConversationSendMessage: { id: string } }>(SEND, { text: "Is anyone reading this?" });
    expect(await until(() => live.results.length === 3)).toBe(true);
    expect(live.results[2]!.data!.organisationUserStats.unreadMessages).toBe(start.unreadMessages + 1);

    await joinTeam(as.admin, submissionId);
    await as.admin.gql(READ, { id: submissionId, ids: [sent.data!.reportConversationSendMessage.id] });
    expect(await until(() => live.results.at(-1)!.data!.organisationUserStats.unreadMessages === start.unreadMessages)).toBe(true);
    live.dispose();
  });

  test("denied: guest members are forbidden; another organisation is not found", async () => {
    const guest = subscribe(as.guest, ORGANISATION_STATS, 1);
    const named = subscribe(as.owner, ORGANISATION_STATS, 1, { organisationID: northwindId });
    await Promise.all([guest.done, named.done]);
    expect(firstError(guest)?.extensions?.code).toBe("FORBIDDEN");
    expect(firstError(named)?.message).toBe("Organisation is not found");
  });
});

describe("userStats subscription", () => {
  test("a guest's pending invites go up when they are invited to a report", async () => {
    const live = subscribe<{ userStats: { pendingInvites: number } }>(as.guest, USER_STATS, 2);
    expect(await until(() => live.results.length === 1, 5_000)).toBe(true);
    const { submissionId } = await newDemoReport();
    await joinTeam(as.owner, submissionId);
    const invited = await as.owner.gql(`mutation ($id: ID!) { reportSubmissionInviteUser(id: $id, email: "guest@demo.test") { id } }`, { id: submissionId });
    expect(invited.errors).toBeUndefined();
    expect(await until(() => live.results.length === 2)).toBe(true);
    expect(live.results[1]!.data!.userStats.pendingInvites).toBe(live.results[0]!.data!.userStats.pendingInvites + 1);
    live.dispose();
  });

  test("denied: anonymous callers are unauthenticated", async () => {
    const nobody = subscribe({ cookie: "" }, USER_STATS, 1);
    await nobody.done;
    expect(firstError(nobody)?.extensions?.code).toBe("UNAUTHENTICATED");
  });
});

describe("recomputation", () => {
  test("a burst of events costs one recomputation, and an unchanged value is not sent again", async () => {
    let computed = 0;
    let changed: () => void = () => {};
    let value = 1;
    const stream = liveValue(0, async () => (computed += 1, value), (listener) => ((changed = listener), () => {}));
    const seen: number[] = [];
    const reading = (async () => {
      for await (const next of stream) seen.push(next);
    })();
    await Bun.sleep(20);
    for (let i = 0; i < 50; i += 1) changed();
    await Bun.sleep(LIVE_DEBOUNCE_MS * 2);
    expect(computed).toBe(1);
    for (let i = 0; i < 5; i += 1) changed();
    await Bun.sleep(LIVE_DEBOUNCE_MS * 2);
    expect(computed).toBe(2);
    value = 2;
    changed();
    await Bun.sleep(LIVE_DEBOUNCE_MS * 2);
    expect(seen).toEqual([0, 1, 2]);
    await stream.return();
    await reading;
  });

  test("events published on the organisation's topic reach a subscriber through the database's NOTIFY", async () => {
    const live = subscribe<{ reportStats: { totalReports: number } }>(as.owner, REPORT_STATS, 2);
    expect(await until(() => live.results.length === 1, 5_000)).toBe(true);
    const [report] = await server.db.select().from(reportSubmissions).where(and(eq(reportSubmissions.organisationId, demoId), eq(reportSubmissions.completed, true), eq(reportSubmissions.isTest, false))).limit(1);
    // A change made outside the API (here: by hand) and announced is counted like any other.
    await server.db.update(reportSubmissions).set({ archived: !report!.archived }).where(eq(reportSubmissions.id, report!.id));
    await server.lantern.services.pubsub.publish(reportUpdatedTopic(demoId), { submissionId: report!.id });
    expect(await until(() => live.results.length === 2)).toBe(true);
    await server.db.update(reportSubmissions).set({ archived: report!.archived }).where(eq(reportSubmissions.id, report!.id));
    live.dispose();
  });
});
