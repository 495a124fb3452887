import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { guestMemberships, guestReportInvites, reportSubmissionAssignees, reportSubmissions, userActivities, users } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { createUser } from "../../factories/users.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { setTwoFactorActivated } from "../../helpers/two-factor.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";
import { readableMail, startSmtpServer, type TestSmtpServer } from "../../helpers/smtp-server.ts";

let server: TestServer;
let smtp: TestSmtpServer;
let owner: StaffClient, admin: StaffClient, member: StaffClient, guest: StaffClient, nwOwner: StaffClient, nwGuest: StaffClient;
const ids: Record<string, string> = {};
const uid = (email: string): string => ids[email]!;
let demoOrgId = "";

// Results are checked by shape; `any` keeps each assertion to one line.
type Data = Record<string, any>;
type Result = { data?: Data | null; errors?: { message: string; extensions?: { code?: string } }[] };
const REPORT = `id status assignedUsers { owner user { id firstName } }`;
const Q = {
  users: `query ($r: ID!) { reportSubmissionUsers(reportSubmissionID: $r) { owner user { id lastName } } }`,
  assignable: `query ($r: ID!, $search: String, $limit: Int, $offset: Int) { reportSubmissionAssignableUsers(reportSubmissionID: $r, search: $search, limit: $limit, offset: $offset) { total list { id lastName } } }`,
  assign: `mutation ($id: ID!, $u: ID!) { reportSubmissionAssignUser(id: $id, userID: $u) { ${REPORT} } }`,
  unassign: `mutation ($id: ID!, $u: ID!) { reportSubmissionUnassignUser(id: $id, userID: $u) { ${REPORT} } }`,
  changeOwner: `mutation ($id: ID!, $u: ID!) { reportSubmissionChangeOwner(id: $id, userID: $u) { ${REPORT} } }`,
  join: `mutation ($id: ID!) { reportSubmissionJoin(id: $id) { ${REPORT} } }`,
  leave: `mutation ($id: ID!) { reportSubmissionLeave(id: $id) }`,
  invite: `mutation ($id: ID!, $email: String!) { reportSubmissionInviteUser(id: $id, email: $email) { id email status organisationName reportID } }`,
  invites: `query ($r: ID!) { reportSubmissionInvites(reportSubmissionID: $r) { id email status } }`,
  inviteRemove: `mutation ($id: ID!) { reportSubmissionInviteRemove(id: $id) { id status archived } }`,
  mine: `{ guestMemberReportInvites { id status organisationName reportSubmissionID } }`,
  accept: `mutation ($id: ID!) { guestMemberReportInviteAccept(id: $id) { id status } }`,
  reject: `mutation ($id: ID!) { guestMemberReportInviteReject(id: $id) { id status } }`,
  get: `query ($id: ID!) { reportSubmissionGet(id: $id) { id reportID } }`,
};
const message = (result: Result) => result.errors?.[0]?.message;
const code = (result: Result) => result.errors?.[0]?.extensions?.code;
const NOT_FOUND = "Report Submission is not found";

async function freshReport(): Promise<{ id: string; reportID: string }> {
  const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
  const { reportID } = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets);
  const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, reportID));
  return { id: row!.id, reportID };
}
const audit = (submissionId: string, action: string) =>
  server.db.select().from(userActivities).where(and(eq(userActivities.objectId, submissionId), eq(userActivities.action, action)));
const team = (submissionId: string) => server.db.select().from(reportSubmissionAssignees).where(eq(reportSubmissionAssignees.submissionId, submissionId));
const statusOf = async (submissionId: string) => (await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, submissionId)))[0]!.status;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  await seedDemo(server.db);
  const login = (email: string) => loginAs(server, email, DEMO_PASSWORD);
  [owner, admin, member, guest, nwOwner, nwGuest] = await Promise.all([
    login("owner@demo.test"), login("admin@demo.test"), login("member@demo.test"), login("guest@demo.test"), login("owner@northwind.test"), login("guest@northwind.test"),
  ]);
  for (const row of await server.db.select().from(users)) ids[row.email] = row.id;
  demoOrgId = (await server.db.select().from(users).where(eq(users.email, "owner@demo.test")))[0]!.organisationId!;
});
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

describe("Join Team", () => {
  test("allowed: an owner takes an unassigned report and owns it; New becomes Assigned; audited and announced", async () => {
    const report = await freshReport();
    expect(await statusOf(report.id)).toBe("New");
    const events: unknown[] = [];
    const stop = server.lantern.services.pubsub.subscribe(`report.updated.${demoOrgId}`, (payload) => events.push(payload));
    const joined = await owner.gql<Data>(Q.join, { id: report.id });
    expect(joined.errors).toBeUndefined();
    expect(joined.data?.reportSubmissionJoin).toMatchObject({ status: "Assigned", assignedUsers: [{ owner: true, user: { id: uid("owner@demo.test") } }] });
    expect(await audit(report.id, "JoinTeam")).toHaveLength(1);
    await Bun.sleep(100);
    stop();
    expect(events).toContainEqual({ submissionId: report.id });
    expect(message(await owner.gql<Data>(Q.join, { id: report.id }))).toBe("This user is already assigned to this report.");
  });

  test("denied: members, guests and other organisations, and nothing changes", async () => {
    const report = await freshReport();
    expect(message(await member.gql<Data>(Q.join, { id: report.id }))).toBe(NOT_FOUND);
    expect(code(await guest.gql<Data>(Q.join, { id: report.id }))).toBe("FORBIDDEN");
    expect(message(await nwOwner.gql<Data>(Q.join, { id: report.id }))).toBe(NOT_FOUND);
    expect(code(await anonymous(server).gql<Data>(Q.join, { id: report.id }))).toBe("UNAUTHENTICATED");
    expect(await team(report.id)).toHaveLength(0);
    expect(await statusOf(report.id)).toBe("New");
  });
});

describe("assigning and the Assign Users dialog", () => {
  test("allowed: the first assignee owns the report; the dialog pages five people at a time, alphabetically", async () => {
    const report = await freshReport();
    for (let i = 0; i < 5; i++) await createUser(server.db, { role: "MEMBER", organisationId: demoOrgId });
    const suspended = await createUser(server.db, { role: "MEMBER", organisationId: demoOrgId, suspended: true });
    const assigned = await owner.gql<Data>(Q.assign, { id: report.id, u: uid("member@demo.test") });
    expect(assigned.data?.reportSubmissionAssignUser).toMatchObject({ status: "Assigned", assignedUsers: [{ owner: true, user: { firstName: "Priya" } }] });
    const [entry] = await audit(report.id, "AssignUser");
    expect(entry?.metadata).toMatchObject({ name: "Priya Raman", userId: uid("member@demo.test") });

    const page = (await owner.gql<Data>(Q.assignable, { r: report.id })).data?.reportSubmissionAssignableUsers;
    // Owner, admin, guest and the five new members; not the assignee, the suspended one or other organisations.
    expect(page.total).toBe(8);
    expect(page.list).toHaveLength(5);
    const names = page.list.map((user: { lastName: string }) => user.lastName);
    expect(names).toEqual([...names].sort());
    const all = (await owner.gql<Data>(Q.assignable, { r: report.id, limit: 20 })).data?.reportSubmissionAssignableUsers.list.map((u: { id: string }) => u.id);
    expect(all).not.toContain(uid("member@demo.test"));
    expect(all).not.toContain(suspended.id);
    expect(all).not.toContain(uid("owner@northwind.test"));
    expect((await owner.gql<Data>(Q.assignable, { r: report.id, search: "webb" })).data?.reportSubmissionAssignableUsers.list).toEqual([{ id: uid("admin@demo.test"), lastName: "Webb" }]);

    expect(message(await owner.gql<Data>(Q.assign, { id: report.id, u: uid("member@demo.test") }))).toBe("This user is already assigned to this report.");
    expect(message(await owner.gql<Data>(Q.assign, { id: report.id, u: uid("owner@northwind.test") }))).toBe("User is not found");
    expect(message(await owner.gql<Data>(Q.assign, { id: report.id, u: suspended.id }))).toBe("Suspended users cannot be assigned to a report.");
  });

  test("denied: a plain team member, a guest and another organisation's owner cannot assign", async () => {
    const report = await freshReport();
    await owner.gql<Data>(Q.join, { id: report.id });
    await owner.gql<Data>(Q.assign, { id: report.id, u: uid("member@demo.test") });
    expect(code(await member.gql<Data>(Q.assign, { id: report.id, u: uid("admin@demo.test") }))).toBe("FORBIDDEN");
    expect(code(await member.gql<Data>(Q.assignable, { r: report.id }))).toBe("FORBIDDEN");
    expect(code(await guest.gql<Data>(Q.assign, { id: report.id, u: uid("admin@demo.test") }))).toBe("FORBIDDEN");
    expect(message(await nwOwner.gql<Data>(Q.assign, { id: report.id, u: uid("admin@demo.test") }))).toBe(NOT_FOUND);
    expect(message(await nwOwner.gql<Data>(Q.assignable, { r: report.id }))).toBe(NOT_FOUND);
    expect(message(await nwOwner.gql<Data>(Q.users, { r: report.id }))).toBe(NOT_FOUND);
    expect((await team(report.id)).map((row) => row.userId).sort()).toEqual([uid("owner@demo.test"), uid("member@demo.test")].sort());
    expect(await audit(report.id, "AssignUser")).toHaveLength(1);
  });
});

describe("removing, changing the owner, and the status as the team fills and empties", () => {
  test("members cannot remove themselves; the owner goes last; the old owner loses assign rights; an empty team is New again", async () => {
    const report = await freshReport();
    await owner.gql<Data>(Q.assign, { id: report.id, u: uid("member@demo.test") });
    await owner.gql<Data>(Q.assign, { id: report.id, u: uid("admin@demo.test") });
    const listed = (await member.gql<Data>(Q.users, { r: report.id })).data?.reportSubmissionUsers;
    expect(listed.map((m: { owner: boolean; user: { id: string } }) => [m.owner, m.user.id])).toEqual([[true, uid("member@demo.test")], [false, uid("admin@demo.test")]]);

    expect(message(await member.gql<Data>(Q.unassign, { id: report.id, u: uid("member@demo.test") }))).toBe("Members cannot remove themselves from a report.");
    expect(message(await member.gql<Data>(Q.leave, { id: report.id }))).toBe("Members cannot remove themselves from a report.");
    expect(message(await owner.gql<Data>(Q.unassign, { id: report.id, u: uid("member@demo.test") }))).toBe("Set a new owner before removing the owner.");
    expect(message(await nwOwner.gql<Data>(Q.changeOwner, { id: report.id, u: uid("admin@demo.test") }))).toBe(NOT_FOUND);

    // The owner (a member) hands over; from then on only the organisation's managers and the new owner manage the team.
    const changed = await member.gql<Data>(Q.changeOwner, { id: report.id, u: uid("admin@demo.test") });
    expect(changed.data?.reportSubmissionChangeOwner.assignedUsers.find((m: { owner: boolean }) => m.owner).user.id).toBe(uid("admin@demo.test"));
    expect((await audit(report.id, "ChangeOwner"))[0]?.metadata).toMatchObject({ name: "Marcus Webb", previousOwnerId: uid("member@demo.test") });
    expect(code(await member.gql<Data>(Q.assign, { id: report.id, u: uid("guest@demo.test") }))).toBe("FORBIDDEN");
    expect(code(await member.gql<Data>(Q.unassign, { id: report.id, u: uid("admin@demo.test") }))).toBe("FORBIDDEN");

    const removed = await admin.gql<Data>(Q.unassign, { id: report.id, u: uid("member@demo.test") });
    expect(removed.data?.reportSubmissionUnassignUser.status).toBe("Assigned");
    expect((await audit(report.id, "UnassignUser"))[0]?.metadata).toMatchObject({ name: "Priya Raman" });
    expect(message(await member.gql<Data>(Q.users, { r: report.id }))).toBe(NOT_FOUND);
    expect(message(await admin.gql<Data>(Q.unassign, { id: report.id, u: uid("admin@demo.test") }))).toBe("Members cannot remove themselves from a report.");
    const emptied = await owner.gql<Data>(Q.unassign, { id: report.id, u: uid("admin@demo.test") });
    expect(emptied.data?.reportSubmissionUnassignUser).toMatchObject({ status: "New", assignedUsers: [] });
    expect(await audit(report.id, "UnassignUser")).toHaveLength(2);
  });

  test("Set Owner is refused for suspended users, guests and people off the team", async () => {
    const report = await freshReport();
    const other = await createUser(server.db, { role: "MEMBER", organisationId: demoOrgId });
    await owner.gql<Data>(Q.join, { id: report.id });
    await owner.gql<Data>(Q.assign, { id: report.id, u: other.id });
    await owner.gql<Data>(Q.assign, { id: report.id, u: uid("guest@demo.test") });
    await server.db.update(users).set({ suspended: true }).where(eq(users.id, other.id));
    const refused = "Set Owner is not offered for suspended users or users from other organisations.";
    expect(message(await owner.gql<Data>(Q.changeOwner, { id: report.id, u: other.id }))).toBe(refused);
    expect(message(await owner.gql<Data>(Q.changeOwner, { id: report.id, u: uid("guest@demo.test") }))).toBe(refused);
    expect(message(await owner.gql<Data>(Q.changeOwner, { id: report.id, u: uid("admin@demo.test") }))).toBe("User is not found");
    expect(await audit(report.id, "ChangeOwner")).toHaveLength(0);
  });
});

describe("guest report invites", () => {
  test("an owner who runs the organisation invites a guest by email; the mail names only the organisation", async () => {
    const report = await freshReport();
    await owner.gql<Data>(Q.join, { id: report.id });
    const before = smtp.messages.length;
    const invited = await owner.gql<Data>(Q.invite, { id: report.id, email: "  Guest@Northwind.test " });
    expect(invited.data?.reportSubmissionInviteUser).toMatchObject({ email: "guest@northwind.test", status: "Opened", organisationName: "Demo Organisation", reportID: report.reportID });
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail!.to).toEqual(["guest@northwind.test"]);
    const text = readableMail(mail!.raw);
    expect(text).toContain("Demo Organisation");
    expect(text).toContain("/admin/manage/report-invites");
    // No report content: not its ID, not the reporter's answers, not the report's form.
    expect(text).not.toContain(report.reportID);
    expect(text).not.toContain("Answer to");
    expect(text).not.toContain("Misconduct");
    expect((await audit(report.id, "InviteUser"))[0]?.metadata).toMatchObject({ email: "guest@northwind.test" });

    expect(message(await owner.gql<Data>(Q.invite, { id: report.id, email: "GUEST@northwind.test" }))).toBe("This person has already been invited to this report.");
    // Not the report's owner, another organisation, or a guest: refused, and nothing is written.
    expect(code(await admin.gql<Data>(Q.invite, { id: report.id, email: "x@example.test" }))).toBe("FORBIDDEN");
    expect(code(await admin.gql<Data>(Q.invites, { r: report.id }))).toBe("FORBIDDEN");
    expect(message(await nwOwner.gql<Data>(Q.invite, { id: report.id, email: "x@example.test" }))).toBe(NOT_FOUND);
    expect(code(await guest.gql<Data>(Q.invite, { id: report.id, email: "x@example.test" }))).toBe("FORBIDDEN");
    expect((await owner.gql<Data>(Q.invites, { r: report.id })).data?.reportSubmissionInvites).toHaveLength(1);
    expect(smtp.messages.length).toBe(before + 1);
  });

  test("the invited guest accepts, joins the team and sees the report; then leaves and loses it", async () => {
    const report = await freshReport();
    await owner.gql<Data>(Q.join, { id: report.id });
    const inviteId = (await owner.gql<Data>(Q.invite, { id: report.id, email: "guest@northwind.test" })).data?.reportSubmissionInviteUser.id;
    expect(message(await nwGuest.gql<Data>(Q.get, { id: report.id }))).toBe(NOT_FOUND);
    const mine = (await nwGuest.gql<Data>(Q.mine)).data?.guestMemberReportInvites;
    expect(mine).toContainEqual({ id: inviteId, status: "Opened", organisationName: "Demo Organisation", reportSubmissionID: report.id });
    expect((await owner.gql<Data>(Q.mine)).data?.guestMemberReportInvites).toEqual([]);

    expect(message(await guest.gql<Data>(Q.accept, { id: inviteId }))).toBe("Invite is not found");
    expect(message(await owner.gql<Data>(Q.accept, { id: inviteId }))).toBe("Invite is not found");
    // Accepting needs two-factor authentication active; refused, the invite stays open and nothing is written.
    const refused = await nwGuest.gql<Data>(Q.accept, { id: inviteId });
    expect({ code: code(refused), message: message(refused) }).toEqual({ code: "FORBIDDEN", message: "2FA is required to accept invites." });
    expect((await nwGuest.gql<Data>(Q.mine)).data?.guestMemberReportInvites).toContainEqual({ id: inviteId, status: "Opened", organisationName: "Demo Organisation", reportSubmissionID: report.id });
    expect((await team(report.id)).map((row) => row.userId)).toEqual([uid("owner@demo.test")]);
    expect(await audit(report.id, "InviteAccept")).toHaveLength(0);
    await setTwoFactorActivated(server, "guest@northwind.test", true);
    expect((await nwGuest.gql<Data>(Q.accept, { id: inviteId })).data?.guestMemberReportInviteAccept.status).toBe("Approved");
    expect((await nwGuest.gql<Data>(Q.get, { id: report.id })).data?.reportSubmissionGet.reportID).toBe(report.reportID);
    const members = (await nwGuest.gql<Data>(Q.users, { r: report.id })).data?.reportSubmissionUsers.map((m: { user: { id: string } }) => m.user.id);
    expect(members).toEqual([uid("owner@demo.test"), uid("guest@northwind.test")]);
    const membership = await server.db.select().from(guestMemberships).where(eq(guestMemberships.userId, uid("guest@northwind.test")));
    expect(membership.map((row) => row.organisationId)).toEqual([demoOrgId]);
    expect(await audit(report.id, "InviteAccept")).toHaveLength(1);
    expect(code(await nwGuest.gql<Data>(Q.accept, { id: inviteId }))).toBe("CONFLICT");
    expect(code(await nwGuest.gql<Data>(Q.assign, { id: report.id, u: uid("guest@northwind.test") }))).toBe("FORBIDDEN");

    expect((await nwGuest.gql<Data>(Q.leave, { id: report.id })).data?.reportSubmissionLeave).toBe(true);
    expect(message(await nwGuest.gql<Data>(Q.get, { id: report.id }))).toBe(NOT_FOUND);
    expect(await audit(report.id, "LeaveReport")).toHaveLength(1);
    // Holding an accepted invite, the guest may be put back by the owner.
    expect((await owner.gql<Data>(Q.assign, { id: report.id, u: uid("guest@northwind.test") })).data?.reportSubmissionAssignUser.assignedUsers).toHaveLength(2);
    // Two-factor turned off again: the report is out of reach at once, and says why.
    await setTwoFactorActivated(server, "guest@northwind.test", false);
    expect(message(await nwGuest.gql<Data>(Q.get, { id: report.id }))).toBe("2FA is required to manage report submissions from different organisations.");
  });

  test("an invite is withdrawn (Aborted) or rejected (Rejected), by the right people only", async () => {
    const report = await freshReport();
    await owner.gql<Data>(Q.join, { id: report.id });
    const outsider = (await owner.gql<Data>(Q.invite, { id: report.id, email: "outsider@example.test" })).data?.reportSubmissionInviteUser.id;
    // Another organisation's invite answers like one that does not exist: its existence is not told.
    expect(message(await nwOwner.gql<Data>(Q.inviteRemove, { id: outsider }))).toBe("Invite is not found");
    expect(code(await admin.gql<Data>(Q.inviteRemove, { id: outsider }))).toBe("FORBIDDEN");
    expect((await owner.gql<Data>(Q.inviteRemove, { id: outsider })).data?.reportSubmissionInviteRemove).toMatchObject({ status: "Aborted", archived: true });
    expect(await audit(report.id, "InviteRemove")).toHaveLength(1);

    const local = (await owner.gql<Data>(Q.invite, { id: report.id, email: "guest@demo.test" })).data?.reportSubmissionInviteUser.id;
    expect(message(await nwGuest.gql<Data>(Q.reject, { id: local }))).toBe("Invite is not found");
    expect((await guest.gql<Data>(Q.reject, { id: local })).data?.guestMemberReportInviteReject.status).toBe("Rejected");
    expect((await owner.gql<Data>(Q.invites, { r: report.id })).data?.reportSubmissionInvites).toEqual([{ id: local, email: "guest@demo.test", status: "Rejected" }]);
    const rows = await server.db.select().from(guestReportInvites).where(eq(guestReportInvites.submissionId, report.id));
    expect(rows.map((row) => row.status).sort()).toEqual(["Aborted", "Rejected"]);
    expect((await team(report.id)).map((row) => row.userId)).toEqual([uid("owner@demo.test")]);
  });
});
