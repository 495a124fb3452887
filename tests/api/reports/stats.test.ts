import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import {
  guestMemberships,
  guestReportInvites,
  organisations,
  reportConversationMessages,
  reportConversations,
  reportSubmissionAssignees,
  reportSubmissions,
  users,
} from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD, DEMO_REPORT_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { TERMINAL_SUBMISSION_STATUSES, type SubmissionStatus } from "../../../api/shared/enums.ts";
import { createOrganisation } from "../../factories/users.ts";
import { ReporterClient } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { setTwoFactorActivated } from "../../helpers/two-factor.ts";
import { anonymous, loginAs, type StaffClient, demoStaff, type DemoStaff } from "../../helpers/session.ts";

type Row = typeof reportSubmissions.$inferSelect;
let server: TestServer;
let demoId: string;
let northwindId: string;
let rows: Row[];
let teams: Map<string, Set<string>>;
let unreadBySubmission: Map<string, number>;
let ids: Record<"member" | "guest", string>;
let as: DemoStaff;

const DAY = 24 * 60 * 60 * 1000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const daysAgo = (days: number) => isoDay(new Date(Date.now() - days * DAY));

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  const orgs = await server.db.select().from(organisations);
  demoId = orgs.find((o) => o.slug === "demo")!.id;
  northwindId = orgs.find((o) => o.slug === "northwind")!.id;
  const demoReports = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.organisationId, demoId));
  const withStatus = (status: SubmissionStatus) => demoReports.find((r) => r.status === status)!;
  // Dashboards leave out test and archived reports: make one of each.
  await server.db.update(reportSubmissions).set({ isTest: true }).where(eq(reportSubmissions.id, withStatus("Substantiated").id));
  await server.db.update(reportSubmissions).set({ archived: true }).where(eq(reportSubmissions.id, withStatus("Completed").id));

  const people = await server.db.select().from(users).where(inArray(users.email, ["member@demo.test", "guest@demo.test"]));
  ids = { member: people.find((u) => u.email === "member@demo.test")!.id, guest: people.find((u) => u.email === "guest@demo.test")!.id };
  await server.db.insert(reportSubmissionAssignees).values({ submissionId: withStatus("Assigned").id, userId: ids.guest });
  // Taken but not yet moved on from New: not "unassigned".
  const fresh = demoReports.filter((r) => r.status === "New");
  expect(fresh.length).toBeGreaterThan(1);
  await server.db.insert(reportSubmissionAssignees).values({ submissionId: fresh[0]!.id, userId: ids.member });
  // The guest's side: one live guest membership (and an archived one), invites in several states.
  const elsewhere = await createOrganisation(server.db, { name: "Elsewhere" });
  await server.db.insert(guestMemberships).values([
    { userId: ids.guest, organisationId: northwindId },
    { userId: ids.guest, organisationId: elsewhere.id, archived: true },
  ]);
  const nw = (await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.organisationId, northwindId)))[0]!;
  const invite = { submissionId: nw.id, organisationId: northwindId, email: "guest@demo.test" };
  await server.db.insert(guestReportInvites).values([
    { ...invite, userId: ids.guest },
    { ...invite, email: "Guest@Demo.TEST", userId: null },
    { ...invite, userId: ids.guest, status: "Approved" },
    { ...invite, userId: ids.guest, archived: true },
    { ...invite, email: "someone@else.test", userId: null },
  ]);

  rows = (await server.db.select().from(reportSubmissions)).filter((r) => r.completed && !r.deletedAt);
  teams = new Map();
  for (const a of await server.db.select().from(reportSubmissionAssignees)) teams.set(a.userId, (teams.get(a.userId) ?? new Set()).add(a.submissionId));
  const unread = await server.db
    .select({ submissionId: reportConversations.submissionId })
    .from(reportConversationMessages)
    .innerJoin(reportConversations, eq(reportConversations.id, reportConversationMessages.conversationId))
    .where(and(eq(reportConversationMessages.from, "Guest"), eq(reportConversationMessages.state, "New")));
  unreadBySubmission = new Map();
  for (const { submissionId } of unread) unreadBySubmission.set(submissionId, (unreadBySubmission.get(submissionId) ?? 0) + 1);

  as = await demoStaff(server);
});
afterAll(() => server.stop());

const STATS = `query ($organisationID: ID, $dateFilter: DateFilterInput) { reportStats(organisationID: $organisationID, dateFilter: $dateFilter) {
  totalReports newReports assignedReports closedReports newReportsDailyAverage closedReportsDailyAverage } }`;
const ORGANISATION_STATS = `query ($organisationID: ID) { organisationUserStats(organisationID: $organisationID) { unreadMessages unassignedReports } }`;
const USER_STATS = `{ userStats { guestOrganisationCount pendingInvites } }`;

async function stats(client: StaffClient, variables: Record<string, unknown> = {}) {
  const result = await client.gql<{ reportStats: Record<string, number> }>(STATS, variables);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data!.reportStats;
}

/** The dashboard as the spec defines it, counted here from the rows the seed (and this file) wrote. */
function expected(keep: (r: Row) => boolean, range: { from?: string; to?: string } = {}) {
  const counted = rows.filter((r) => !r.archived && !r.isTest && keep(r));
  const inRange = counted.filter((r) => (!range.from || isoDay(r.completedAt!) >= range.from) && (!range.to || isoDay(r.completedAt!) <= range.to));
  const start = range.from ?? counted.map((r) => isoDay(r.completedAt!)).sort()[0]!;
  const days = (Date.parse(range.to ?? isoDay(new Date())) - Date.parse(start)) / DAY + 1;
  const closed = inRange.filter((r) => (TERMINAL_SUBMISSION_STATUSES as readonly string[]).includes(r.status)).length;
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    totalReports: inRange.length,
    newReports: inRange.filter((r) => r.status === "New").length,
    assignedReports: inRange.filter((r) => r.status === "Assigned").length,
    closedReports: closed,
    newReportsDailyAverage: round(inRange.length / days),
    closedReportsDailyAverage: round(closed / days),
  };
}
const inDemo = (r: Row) => r.organisationId === demoId;
const codeOf = (result: { errors?: { extensions?: { code?: string } }[] }) => result.errors?.[0]?.extensions?.code;

describe("reportStats", () => {
  test("allowed: owner and admin get their organisation's numbers, without test or archived reports", async () => {
    const want = expected(inDemo);
    expect(want.totalReports).toBeLessThan(rows.filter(inDemo).length);
    expect(Math.min(want.newReports, want.assignedReports, want.closedReports)).toBeGreaterThan(0);
    expect(await stats(as.owner)).toEqual(want);
    expect(await stats(as.admin, { organisationID: demoId })).toEqual(want);
  });

  test("the date filter counts inclusive days of completion, and averages over them", async () => {
    const range = { from: daysAgo(20), to: daysAgo(2) };
    const want = expected(inDemo, range);
    expect(want.totalReports).toBeGreaterThan(0);
    expect(want.totalReports).toBeLessThan(expected(inDemo).totalReports);
    expect(await stats(as.owner, { dateFilter: range })).toEqual(want);
    expect(await stats(as.owner, { dateFilter: { from: range.from } })).toEqual(expected(inDemo, { from: range.from }));
    const future = await as.owner.gql(STATS, { dateFilter: { from: isoDay(new Date(Date.now() + 2 * DAY)) } });
    expect(future.errors?.[0]).toMatchObject({ message: "Date cannot be in the future", extensions: { code: "BAD_USER_INPUT" } });
    expect(codeOf(await as.owner.gql(STATS, { dateFilter: { from: range.to, to: range.from } }))).toBe("BAD_USER_INPUT");
  });

  test("a member counts only the reports they are on the team of", async () => {
    const want = expected((r) => Boolean(teams.get(ids.member)?.has(r.id)));
    expect(want.totalReports).toBeGreaterThan(0);
    expect(await stats(as.member)).toEqual(want);
  });

  test("a super admin counts every organisation, or the one named", async () => {
    expect(await stats(as.superAdmin)).toEqual(expected(() => true));
    expect(await stats(as.superAdmin, { organisationID: northwindId })).toEqual(expected((r) => r.organisationId === northwindId));
  });

  test("denied: guests have no dashboard; another organisation is not found; anonymous callers are unauthenticated", async () => {
    const guest = await as.guest.gql(STATS, {});
    expect(guest.data).toBeNull();
    expect(codeOf(guest)).toBe("FORBIDDEN");
    expect((await as.owner.gql(STATS, { organisationID: northwindId })).errors?.[0]?.message).toBe("Organisation is not found");
    expect(codeOf(await anonymous(server).gql(STATS, {}))).toBe("UNAUTHENTICATED");
  });
});

describe("organisationUserStats", () => {
  const want = (keep: (r: Row) => boolean) => ({
    unreadMessages: rows.filter(keep).reduce((sum, r) => sum + (unreadBySubmission.get(r.id) ?? 0), 0),
    unassignedReports: rows.filter((r) => keep(r) && r.status === "New" && ![...teams.values()].some((team) => team.has(r.id))).length,
  });
  const get = async (client: StaffClient, organisationID?: string) =>
    (await client.gql<{ organisationUserStats: Record<string, number> }>(ORGANISATION_STATS, { organisationID })).data?.organisationUserStats;

  test("allowed: unread reporter messages and unassigned New reports of the reports the user sees", async () => {
    const owner = want(inDemo);
    expect(owner.unreadMessages).toBeGreaterThan(0);
    expect(owner.unassignedReports).toBeGreaterThan(0);
    expect(await get(as.owner)).toEqual(owner);
    expect(await get(as.member)).toEqual(want((r) => Boolean(teams.get(ids.member)?.has(r.id))));
    const guest = want((r) => Boolean(teams.get(ids.guest)?.has(r.id)));
    expect(guest.unreadMessages).toBeGreaterThan(0);
    // A guest's counts come from reports they reach only with two-factor authentication (decision 032).
    expect(await get(as.guest)).toEqual({ unreadMessages: 0, unassignedReports: 0 });
    await setTwoFactorActivated(server, "guest@demo.test", true);
    try {
      expect(await get(as.guest)).toEqual({ ...guest, unassignedReports: 0 });
    } finally {
      await setTwoFactorActivated(server, "guest@demo.test", false);
    }
    expect(await get(as.superAdmin, northwindId)).toEqual(want((r) => r.organisationId === northwindId));
  });

  test("denied: another organisation is not found; anonymous callers are unauthenticated", async () => {
    expect((await as.admin.gql(ORGANISATION_STATS, { organisationID: northwindId })).errors?.[0]?.message).toBe("Organisation is not found");
    expect(codeOf(await anonymous(server).gql(ORGANISATION_STATS, {}))).toBe("UNAUTHENTICATED");
  });
});

describe("userStats", () => {
  test("allowed: live guest memberships and open invites, matched by user or by address in any case", async () => {
    expect((await as.guest.gql(USER_STATS)).data?.userStats).toEqual({ guestOrganisationCount: 1, pendingInvites: 2 });
    expect((await as.owner.gql(USER_STATS)).data?.userStats).toEqual({ guestOrganisationCount: 0, pendingInvites: 0 });
  });

  test("denied: anonymous callers are unauthenticated; a reporter's session is forbidden", async () => {
    expect(codeOf(await anonymous(server).gql(USER_STATS))).toBe("UNAUTHENTICATED");
    const reporter = new ReporterClient(server, "demo.localhost");
    const report = rows.find((r) => inDemo(r) && r.status === "New")!;
    expect((await reporter.post("/api/auth/report_login", { reportID: report.reportId, password: DEMO_REPORT_PASSWORD })).status).toBe(200);
    expect(codeOf(await reporter.gql(USER_STATS))).toBe("FORBIDDEN");
  });
});
