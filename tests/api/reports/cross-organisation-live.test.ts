import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import type { Client } from "graphql-ws";
import { reportSubmissions } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { LIVE_DEBOUNCE_MS } from "../../../api/modules/reports/graphql-live.ts";
import { demoOrganisationIds } from "../../helpers/demo.ts";
import { buildNorthwindReport, missingIds, organisationState, SEND_TEXT, type NorthwindReport, type TargetIds } from "../../helpers/northwind-report.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { demoStaff, type DemoStaff, type StaffClient } from "../../helpers/session.ts";
import { collect, wsClient } from "../../helpers/websocket.ts";
import { holdsWithin } from "../../helpers/holds-within.ts";

/**
 * The subscriptions of cross-organisation.test.ts's promise: subscribing to Northwind's report or
 * organisation by id ends at once with the error an unknown id gets, and a Demo subscriber over
 * their own organisation hears nothing of Northwind's chats.
 */

let server: TestServer;
let as: DemoStaff;
let northwind: NorthwindReport;
let demoReportId: string;
const sockets: Client[] = [];

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  as = await demoStaff(server);
  northwind = await buildNorthwindReport(server);
  const { demoId } = await demoOrganisationIds(server);
  // Demo's seeded Assigned report: its member is on the team and may write in its chat.
  demoReportId = (await server.db.select().from(reportSubmissions).where(and(eq(reportSubmissions.organisationId, demoId), eq(reportSubmissions.status, "Assigned"))))[0]!.id;
}, 60_000);
afterAll(async () => {
  for (const socket of sockets) await socket.dispose();
  await server.stop();
});

type Failure = { message: string; extensions?: { code?: string } };
type Result = { data?: Record<string, unknown> | null; errors?: Failure[] };

function subscribe(client: StaffClient, query: string, variables: Record<string, unknown>, count = 1) {
  const socket = wsClient(server, client.cookie);
  sockets.push(socket);
  return collect<Result>(socket, query, count, variables);
}

type Live = ReturnType<typeof subscribe>;

/** What a subscription said within `ms`: its first error (sent as a result or as a transport error), its data, whether it ended. */
async function settle(live: Live, ms = 2_000) {
  const ended = await Promise.race([live.done.then(() => true), Bun.sleep(ms).then(() => false)]);
  live.dispose();
  const error = live.results[0]?.errors?.[0] ?? (live.errors[0] as Failure[] | undefined)?.[0] ?? null;
  return { ended, error, data: live.results.map((result) => result.data ?? null).filter((data) => data !== null) };
}

const until = (check: () => boolean, ms = 10_000) => holdsWithin(check, ms);

/** Has the reporter write until `live` hears of it: a subscription's start cannot be observed from outside. */
async function reporterWritesUntil(live: Live, count = 1) {
  for (let attempt = 0; attempt < 10 && live.results.length < count; attempt += 1) {
    await northwind.reporter.gql(SEND_TEXT, { text: `Still here (${attempt})` });
    await until(() => live.results.length >= count, 300);
  }
  return live.results.length >= count;
}

const REPORT = "Report Submission is not found";
const ORGANISATION = "Organisation is not found";

interface LiveRow {
  name: string;
  doc: string;
  vars: (ids: TargetIds) => Record<string, unknown>;
  owner: string;
  /** Sends its first value only when something happens, not at once. */
  onEvent?: true;
}

const LIVE: LiveRow[] = [
  { name: "reportConversationMessage", doc: `subscription ($id: ID) { reportConversationMessage(reportSubmissionID: $id) { action message { id message } } }`, vars: (i) => ({ id: i.report }), owner: REPORT, onEvent: true },
  { name: "reportConversationTotalUnreadMessages", doc: `subscription ($id: ID) { reportConversationTotalUnreadMessages(reportSubmissionID: $id) }`, vars: (i) => ({ id: i.report }), owner: REPORT },
  { name: "reportConversation (presence)", doc: `subscription ($id: ID) { reportConversation(reportSubmissionID: $id) { otherUserStatus lastSeenAt } }`, vars: (i) => ({ id: i.report }), owner: REPORT },
  { name: "reportConversations of the organisation", doc: `subscription ($org: ID) { reportConversations(organisationID: $org) { submissionId action } }`, vars: (i) => ({ org: i.organisation }), owner: ORGANISATION, onEvent: true },
  { name: "reportStats of the organisation", doc: `subscription ($org: ID) { reportStats(organisationID: $org) { totalReports newReports } }`, vars: (i) => ({ org: i.organisation }), owner: ORGANISATION },
  { name: "reportSubmission (admin view)", doc: `subscription ($id: ID!) { reportSubmission(id: $id) { id status priority } }`, vars: (i) => ({ id: i.report }), owner: REPORT },
  { name: "organisationUserStats of the organisation", doc: `subscription ($org: ID) { organisationUserStats(organisationID: $org) { unreadMessages unassignedReports } }`, vars: (i) => ({ org: i.organisation }), owner: ORGANISATION },
];

for (const role of ["owner", "admin", "member", "guest"] as const) {
  describe(`Demo's ${role} subscribing to Northwind's ids`, () => {
    for (const row of LIVE) {
      test(`${row.name}: ends at once with the error an unknown id gets`, async () => {
        const before = await organisationState(server, northwind.ids.organisation);
        const [target, missing] = await Promise.all([
          settle(subscribe(as[role], row.doc, row.vars(northwind.ids))),
          settle(subscribe(as[role], row.doc, row.vars(missingIds(northwind.ids)))),
        ]);
        // A subscription that was accepted would sit silently waiting for events: it must have ended.
        expect(target).toEqual(missing);
        expect(target.ended).toBe(true);
        expect(target.data).toEqual([]);
        expect(["NOT_FOUND", "FORBIDDEN"]).toContain(target.error?.extensions?.code ?? "none");
        if (role === "owner") expect(target.error?.message).toBe(row.owner);
        const text = JSON.stringify(target);
        for (const secret of northwind.secrets) expect(text).not.toContain(secret);
        expect(await organisationState(server, northwind.ids.organisation)).toEqual(before);
      });
    }
  });
}

describe("a Demo subscriber over their own organisation", () => {
  test("hears Demo's chats but nothing of Northwind's, which Northwind's owner hears", async () => {
    const EVENTS = `subscription { reportConversations { submissionId action } }`;
    const BADGES = `subscription { organisationUserStats { unreadMessages unassignedReports } }`;
    const demoEvents = subscribe(as.owner, EVENTS, {}, 1_000);
    const demoBadges = subscribe(as.admin, BADGES, {}, 1_000);
    const northwindEvents = subscribe(northwind.owner, EVENTS, {}, 1);
    const northwindBadges = subscribe(northwind.owner, BADGES, {}, 2);
    expect(await until(() => demoBadges.results.length === 1 && northwindBadges.results.length === 1, 5_000)).toBe(true);

    // Northwind's reporter writes: Northwind's owner hears of the chat and sees one more unread message.
    expect(await reporterWritesUntil(northwindEvents)).toBe(true);
    expect(northwindEvents.results[0]!.data).toEqual({ reportConversations: { submissionId: northwind.ids.report, action: "message" } });
    expect(await until(() => northwindBadges.results.length === 2)).toBe(true);

    // Demo's own chat moves, so Demo's subscription is certainly listening by now.
    for (let attempt = 0; attempt < 10 && demoEvents.results.length === 0; attempt += 1) {
      expect((await as.member.gql(SEND_TEXT, { id: demoReportId, text: `Demo follow-up ${attempt}` })).errors).toBeUndefined();
      await until(() => demoEvents.results.length > 0, 300);
    }
    await Bun.sleep(LIVE_DEBOUNCE_MS * 3);
    expect(demoEvents.results.length).toBeGreaterThan(0);
    expect(new Set(demoEvents.results.map((result) => JSON.stringify(result.data)))).toEqual(new Set([JSON.stringify({ reportConversations: { submissionId: demoReportId, action: "message" } })]));
    expect(demoBadges.results).toHaveLength(1);
    const heard = JSON.stringify([demoEvents.results, demoBadges.results]);
    for (const secret of northwind.secrets) expect(heard).not.toContain(secret);
    for (const live of [demoEvents, demoBadges, northwindEvents, northwindBadges]) live.dispose();
  });
});

// The same subscriptions by Northwind's owner start and deliver, so the refusals above are real.
describe("the allowed side: Northwind's owner subscribes to the same ids", () => {
  for (const row of LIVE) {
    test(`${row.name} delivers`, async () => {
      const live = subscribe(northwind.owner, row.doc, row.vars(northwind.ids));
      if (row.onEvent) expect(await reporterWritesUntil(live)).toBe(true);
      const heard = await settle(live, 5_000);
      expect(heard.error).toBeNull();
      expect(heard.data).toHaveLength(1);
    });
  }
});
