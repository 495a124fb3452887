import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { guestMemberships, guestReportInvites, organisations, reportSubmissionAssignees, reportSubmissions, userActivities, users } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { createOrganisation, createUser } from "../../factories/users.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";
import { setTwoFactorActivated } from "../../helpers/two-factor.ts";

// Guest access (decision 032): a guest member, and anyone on the team of another organisation's
// report, reaches reports only with two-factor authentication active; accepting an invite needs
// it, rejecting does not; the guest's organisations list; the Guest Access pending count.

let server: TestServer;
let owner: StaffClient, member: StaffClient, nwGuest: StaffClient, nwMember: StaffClient, superAdmin: StaffClient;
const ids: Record<string, string> = {};
let demoOrgId = "";

type Data = Record<string, any>;
type Result = { data?: Data | null; errors?: { message: string; extensions?: { code?: string } }[] };
const message = (result: Result) => result.errors?.[0]?.message;
const code = (result: Result) => result.errors?.[0]?.extensions?.code;
const OTHER_ORGANISATIONS = "2FA is required to manage report submissions from different organisations.";
const FOR_INVITES = "2FA is required to accept invites.";

const Q = {
  organisations: `query ($search: String, $limit: Int, $offset: Int) { organisations(search: $search, limit: $limit, offset: $offset) { total list { id name isGuestMember } } }`,
  get: `query ($id: ID!) { reportSubmissionGet(id: $id) { id reportID } }`,
  list: `{ reportSubmissions(search: { filter: All }) { total list { id } } }`,
  invite: `mutation ($id: ID!, $email: String!) { reportSubmissionInviteUser(id: $id, email: $email) { id } }`,
  mine: `{ guestMemberReportInvites { id status reportID } }`,
  accept: `mutation ($id: ID!) { guestMemberReportInviteAccept(id: $id) { id status } }`,
  reject: `mutation ($id: ID!) { guestMemberReportInviteReject(id: $id) { id status } }`,
  leave: `mutation ($id: ID!) { reportSubmissionLeave(id: $id) }`,
  stats: `{ userStats { guestOrganisationCount pendingInvites } }`,
};

async function ownedReport(): Promise<{ id: string; reportID: string }> {
  const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
  const { reportID } = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets);
  const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, reportID));
  const joined = await owner.gql(`mutation ($id: ID!) { reportSubmissionJoin(id: $id) { id } }`, { id: row!.id });
  expect(joined.errors).toBeUndefined();
  return { id: row!.id, reportID };
}

const onTeam = (submissionId: string, userId: string) => server.db.insert(reportSubmissionAssignees).values({ submissionId, userId });
const audit = (submissionId: string, action: string) =>
  server.db.select().from(userActivities).where(and(eq(userActivities.objectId, submissionId), eq(userActivities.action, action)));

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  const login = (email: string) => loginAs(server, email, DEMO_PASSWORD);
  [owner, member, nwGuest, nwMember, superAdmin] = await Promise.all([
    login("owner@demo.test"),
    login("member@demo.test"),
    login("guest@northwind.test"),
    login("member@northwind.test"),
    login("admin@lantern.test"),
  ]);
  for (const row of await server.db.select().from(users)) ids[row.email] = row.id;
  demoOrgId = (await server.db.select().from(users).where(eq(users.email, "owner@demo.test")))[0]!.organisationId!;
});
afterAll(async () => {
  await server.stop();
});

describe("reports of another organisation need two-factor authentication", () => {
  test("a guest on the team: without 2FA no list row, no conversation, and the report refused with the spec's text", async () => {
    const report = await ownedReport();
    await onTeam(report.id, ids["guest@northwind.test"]!);
    const refused = await nwGuest.gql(Q.get, { id: report.id });
    expect({ code: code(refused), message: message(refused) }).toEqual({ code: "FORBIDDEN", message: OTHER_ORGANISATIONS });
    expect((await nwGuest.gql<Data>(Q.list)).data?.reportSubmissions.list.map((row: { id: string }) => row.id)).not.toContain(report.id);
    expect(message(await nwGuest.gql(Q.leave, { id: report.id }))).toBe(OTHER_ORGANISATIONS);

    await setTwoFactorActivated(server, "guest@northwind.test", true);
    try {
      expect((await nwGuest.gql<Data>(Q.get, { id: report.id })).data?.reportSubmissionGet.reportID).toBe(report.reportID);
      expect((await nwGuest.gql<Data>(Q.list)).data?.reportSubmissions.list.map((row: { id: string }) => row.id)).toContain(report.id);
    } finally {
      await setTwoFactorActivated(server, "guest@northwind.test", false);
    }
    // Turned off again, the same signed-in session (its actor cached) loses the report at once.
    expect(message(await nwGuest.gql(Q.get, { id: report.id }))).toBe(OTHER_ORGANISATIONS);
    expect((await nwGuest.gql<Data>(Q.list)).data?.reportSubmissions.total).toBe(0);
  });

  test("a member on another organisation's team needs it too; on their own organisation's team they do not", async () => {
    const report = await ownedReport();
    await onTeam(report.id, ids["member@northwind.test"]!);
    await onTeam(report.id, ids["member@demo.test"]!);
    expect(message(await nwMember.gql(Q.get, { id: report.id }))).toBe(OTHER_ORGANISATIONS);
    expect((await nwMember.gql<Data>(Q.list)).data?.reportSubmissions.list.map((row: { id: string }) => row.id)).not.toContain(report.id);
    expect((await member.gql<Data>(Q.get, { id: report.id })).data?.reportSubmissionGet.id).toBe(report.id);

    await setTwoFactorActivated(server, "member@northwind.test", true);
    try {
      expect((await nwMember.gql<Data>(Q.get, { id: report.id })).data?.reportSubmissionGet.id).toBe(report.id);
      expect((await nwMember.gql<Data>(Q.list)).data?.reportSubmissions.list.map((row: { id: string }) => row.id)).toContain(report.id);
    } finally {
      await setTwoFactorActivated(server, "member@northwind.test", false);
    }
  });

  test("a guest without 2FA is refused even a report of the organisation their account belongs to", async () => {
    const report = await ownedReport();
    const homeGuest = await createUser(server.db, { role: "GUEST_MEMBER", organisationId: demoOrgId });
    await onTeam(report.id, homeGuest.id);
    const client = await loginAs(server, homeGuest.email, homeGuest.password);
    expect(message(await client.gql(Q.get, { id: report.id }))).toBe(OTHER_ORGANISATIONS);
    await setTwoFactorActivated(server, homeGuest.email, true);
    expect((await client.gql<Data>(Q.get, { id: report.id })).data?.reportSubmissionGet.id).toBe(report.id);
  });
});

describe("answering a report invite", () => {
  test("accepting without 2FA is refused and changes nothing; with it the guest joins; a second answer is refused", async () => {
    const report = await ownedReport();
    const invite = (await owner.gql<Data>(Q.invite, { id: report.id, email: "guest@northwind.test" })).data?.reportSubmissionInviteUser.id;
    const refused = await nwGuest.gql(Q.accept, { id: invite });
    expect({ code: code(refused), message: message(refused) }).toEqual({ code: "FORBIDDEN", message: FOR_INVITES });
    const [row] = await server.db.select().from(guestReportInvites).where(eq(guestReportInvites.id, invite));
    expect(row!.status).toBe("Opened");
    expect(await audit(report.id, "InviteAccept")).toHaveLength(0);

    await setTwoFactorActivated(server, "guest@northwind.test", true);
    try {
      expect((await nwGuest.gql<Data>(Q.accept, { id: invite })).data?.guestMemberReportInviteAccept.status).toBe("Approved");
      expect(code(await nwGuest.gql(Q.accept, { id: invite }))).toBe("CONFLICT");
      expect(code(await nwGuest.gql(Q.reject, { id: invite }))).toBe("CONFLICT");
      expect((await nwGuest.gql<Data>(Q.get, { id: report.id })).data?.reportSubmissionGet.id).toBe(report.id);
    } finally {
      await setTwoFactorActivated(server, "guest@northwind.test", false);
    }
  });

  test("rejecting needs no 2FA; malformed, unknown and other people's invites are not found", async () => {
    const report = await ownedReport();
    const invite = (await owner.gql<Data>(Q.invite, { id: report.id, email: "guest@northwind.test" })).data?.reportSubmissionInviteUser.id;
    for (const id of ["not-a-uuid", crypto.randomUUID(), "x".repeat(10_000), "\u0000"]) {
      expect(code(await nwGuest.gql(Q.accept, { id }))).toBeOneOf(["NOT_FOUND", "BAD_USER_INPUT"]);
    }
    expect(message(await member.gql(Q.reject, { id: invite }))).toBe("Invite is not found");
    expect(code(await anonymous(server).gql(Q.reject, { id: invite }))).toBe("UNAUTHENTICATED");
    expect((await nwGuest.gql<Data>(Q.reject, { id: invite })).data?.guestMemberReportInviteReject.status).toBe("Rejected");
    expect(await audit(report.id, "InviteReject")).toHaveLength(1);
    const team = await server.db.select().from(reportSubmissionAssignees).where(eq(reportSubmissionAssignees.submissionId, report.id));
    expect(team.map((r) => r.userId)).toEqual([ids["owner@demo.test"]!]);
  });
});

describe("the Guest Access counts", () => {
  test("pending invites count only what the invites page lists: a guest's, never a member's unanswerable ones", async () => {
    const report = await ownedReport();
    const before = (await member.gql<Data>(Q.stats)).data?.userStats;
    await owner.gql(Q.invite, { id: report.id, email: "member@northwind.test" });
    expect((await nwMember.gql<Data>(Q.mine)).data?.guestMemberReportInvites).toEqual([]);
    expect((await nwMember.gql<Data>(Q.stats)).data?.userStats.pendingInvites).toBe(0);
    expect((await member.gql<Data>(Q.stats)).data?.userStats).toEqual(before);
    const listed = (await nwGuest.gql<Data>(Q.mine)).data?.guestMemberReportInvites.filter((row: { status: string }) => row.status === "Opened");
    expect((await nwGuest.gql<Data>(Q.stats)).data?.userStats.pendingInvites).toBe(listed.length);
  });
});

describe("organisations", () => {
  test("a guest's list is the organisations they are admitted to, searchable and paged, archived ones left out", async () => {
    const guest = await createUser(server.db, { role: "GUEST_MEMBER", organisationId: demoOrgId });
    const [alpha, beta, closed, withdrawn] = await Promise.all([
      createOrganisation(server.db, { name: "Alpha Holdings" }),
      createOrganisation(server.db, { name: "Beta Works" }),
      createOrganisation(server.db, { name: "Closed Ltd", archived: true }),
      createOrganisation(server.db, { name: "Withdrawn Pty" }),
    ]);
    await server.db.insert(guestMemberships).values([
      { userId: guest.id, organisationId: alpha!.id },
      { userId: guest.id, organisationId: beta!.id },
      { userId: guest.id, organisationId: closed!.id },
      { userId: guest.id, organisationId: withdrawn!.id, archived: true },
    ]);
    const client = await loginAs(server, guest.email, guest.password);
    expect((await client.gql<Data>(Q.organisations)).data?.organisations).toEqual({
      total: 2,
      list: [
        { id: alpha!.id, name: "Alpha Holdings", isGuestMember: true },
        { id: beta!.id, name: "Beta Works", isGuestMember: true },
      ],
    });
    expect((await client.gql<Data>(Q.organisations, { search: "beta" })).data?.organisations.list.map((row: { name: string }) => row.name)).toEqual(["Beta Works"]);
    expect((await client.gql<Data>(Q.organisations, { search: "%" })).data?.organisations.total).toBe(0);
    expect((await client.gql<Data>(Q.organisations, { limit: 1, offset: 1 })).data?.organisations).toMatchObject({ total: 2, list: [{ name: "Beta Works" }] });
    // An invalid page size falls back to 20 (spec §8).
    expect((await client.gql<Data>(Q.organisations, { limit: -5 })).data?.organisations.list).toHaveLength(2);
  });

  test("an owner with no guest admissions sees none; a super admin sees every organisation", async () => {
    expect((await owner.gql<Data>(Q.organisations)).data?.organisations).toEqual({ total: 0, list: [] });
    const all = await server.db.select({ id: organisations.id }).from(organisations);
    expect((await superAdmin.gql<Data>(Q.organisations, { limit: 100 })).data?.organisations.total).toBe(all.length);
  });

  test("denied: anonymous callers are unauthenticated; hostile search text is refused with a clear error", async () => {
    expect(code(await anonymous(server).gql(Q.organisations))).toBe("UNAUTHENTICATED");
    expect(code(await nwGuest.gql(Q.organisations, { search: "x".repeat(1_000_000) }))).toBe("BAD_USER_INPUT");
    expect(code(await nwGuest.gql(Q.organisations, { search: "a\u0000b" }))).toBe("BAD_USER_INPUT");
    const wrongType = await nwGuest.gql(Q.organisations, { limit: "ten" });
    expect({ message: message(wrongType), data: wrongType.data ?? null }).toEqual({ message: 'Int cannot represent non-integer value: "ten"', data: null });
  });
});
