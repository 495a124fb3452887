import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, isNotNull } from "drizzle-orm";
import { guestMemberships, reportConversationMessages, reportSubmissionAssignees, reportSubmissionNotes, reportSubmissions, userActivities, users } from "../../../db/schema/index.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { ACCOUNT_SUSPENDED } from "../../../api/modules/auth/login.ts";
import { seatUsage } from "../../../api/modules/organisations/seats.ts";
import { createUser } from "../../factories/users.ts";
import { demoOrganisationIds } from "../../helpers/demo.ts";
import { startInstancePair, type TestServer } from "../../helpers/server.ts";
import { clientWithCookie, loginAs, type StaffClient } from "../../helpers/session.ts";
import { CHECK, codeOf, messageOf, USER_DELETE, USER_KICK, USER_SUSPEND, USER_UNSUSPEND } from "./users-fixture.ts";

/**
 * What ends someone's access: suspension (at once on every instance), deletion (their words stay,
 * without an author) and a guest's removal from an organisation. Two instances need Postgres; on
 * PGlite both names are one instance.
 */
let pair: Awaited<ReturnType<typeof startInstancePair>>;
let first: TestServer;
let second: TestServer;
let demoId: string;
let northwindId: string;
let owner: StaffClient;
let admin: StaffClient;
let member: StaffClient;

beforeAll(async () => {
  pair = await startInstancePair();
  ({ first, second } = pair);
  ({ demoId, northwindId } = await demoOrganisationIds(first));
  owner = await loginAs(first, "owner@demo.test", DEMO_PASSWORD);
  admin = await loginAs(first, "admin@demo.test", DEMO_PASSWORD);
  member = await loginAs(first, "member@demo.test", DEMO_PASSWORD);
}, 60_000);
afterAll(() => pair.stop());

const signIn = (server: TestServer, email: string, password: string) =>
  server.fetch("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email, password, verifyToken: "" }) });

describe("suspension", () => {
  test("ends the user's sessions at once on every instance; they cannot sign in until unsuspended", async () => {
    const user = await createUser(first.db, { role: "MEMBER", organisationId: demoId });
    const here = await loginAs(first, user.email, user.password);
    const there = await loginAs(second, user.email, user.password);
    // Both sessions are cached on the second instance.
    expect(await CHECK(clientWithCookie(second, here.cookie))).not.toBe("unauthorised");
    expect(await CHECK(there)).not.toBe("unauthorised");
    const seatsBefore = (await seatUsage(first.db, demoId))!.activeUsers;

    const suspended = await owner.gql<{ userSuspend: { suspended: boolean } }>(USER_SUSPEND, { id: user.id });
    expect(suspended.data?.userSuspend.suspended).toBe(true);
    expect(await CHECK(clientWithCookie(second, here.cookie))).toBe("unauthorised");
    expect(await CHECK(there)).toBe("unauthorised");
    expect(await CHECK(here)).toBe("unauthorised");
    expect((await seatUsage(first.db, demoId))!.activeUsers).toBe(seatsBefore - 1);

    const refused = await signIn(second, user.email, user.password);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe(ACCOUNT_SUSPENDED);
    expect(messageOf(await owner.gql(USER_SUSPEND, { id: user.id }))).toBe("User is already suspended.");

    expect((await owner.gql(USER_UNSUSPEND, { id: user.id })).errors).toBeUndefined();
    expect((await signIn(second, user.email, user.password)).status).toBe(200);
    expect((await seatUsage(first.db, demoId))!.activeUsers).toBe(seatsBefore);
    const actions = await first.db.select({ action: userActivities.action }).from(userActivities).where(eq(userActivities.objectId, user.id));
    expect(actions.map((row) => row.action)).toEqual(expect.arrayContaining(["Suspend", "Unsuspend"]));
  });
});

describe("permanent deletion", () => {
  test("the user's notes, messages and audit entries stay, with no author; their sessions end everywhere", async () => {
    // A Demo admin who wrote on a report: a note, a chat message, and audit entries.
    const [report] = await first.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(and(eq(reportSubmissions.organisationId, demoId), isNotNull(reportSubmissions.reportId))).limit(1);
    const author = await createUser(first.db, { role: "ORGANISATION_ADMIN", organisationId: demoId });
    const authorClient = await loginAs(second, author.email, author.password);
    const [note] = await first.db.insert(reportSubmissionNotes).values({ submissionId: report!.id, organisationId: demoId, authorUserId: author.id, note: "Kept after deletion" }).returning();
    const [message] = await first.db.select().from(reportConversationMessages).limit(1);
    if (message) await first.db.update(reportConversationMessages).set({ fromUserId: author.id }).where(eq(reportConversationMessages.id, message.id));
    const seatsBefore = (await seatUsage(first.db, demoId))!.activeUsers;

    expect(codeOf(await admin.gql(USER_DELETE, { id: author.id }))).toBe("FORBIDDEN");
    expect((await owner.gql(USER_DELETE, { id: author.id })).data).toEqual({ userDelete: true });

    expect(await CHECK(authorClient)).toBe("unauthorised");
    expect((await first.db.select().from(users).where(eq(users.id, author.id))).length).toBe(0);
    const [kept] = await first.db.select().from(reportSubmissionNotes).where(eq(reportSubmissionNotes.id, note!.id));
    expect(kept).toMatchObject({ note: "Kept after deletion", authorUserId: null });
    if (message) expect((await first.db.select().from(reportConversationMessages).where(eq(reportConversationMessages.id, message.id)))[0]).toMatchObject({ fromUserId: null, message: message.message });
    const [deletion] = await first.db.select().from(userActivities).where(and(eq(userActivities.objectId, author.id), eq(userActivities.action, "Delete")));
    expect(deletion?.metadata).toMatchObject({ first_name: "Test" });
    // Their own entries (the sign-in) stay, without an author, marked so the log can say 'Deleted user'.
    const [signIn] = await first.db.select().from(userActivities).where(and(eq(userActivities.objectId, author.id), eq(userActivities.action, "Login")));
    expect(signIn).toMatchObject({ userId: null, metadata: { deleted_user: true } });
    expect((await seatUsage(first.db, demoId))!.activeUsers).toBe(seatsBefore - 1);
    expect(messageOf(await owner.gql(USER_DELETE, { id: author.id }))).toBe("User is not found");
  });
});

describe("userKick", () => {
  async function admittedGuest() {
    const guest = await createUser(first.db, { role: "GUEST_MEMBER", organisationId: northwindId });
    await first.db.insert(guestMemberships).values({ userId: guest.id, organisationId: demoId });
    const [report] = await first.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.organisationId, demoId)).limit(1);
    await first.db.insert(reportSubmissionAssignees).values({ submissionId: report!.id, userId: guest.id });
    return guest;
  }
  const listed = async (client: StaffClient, id: string) =>
    (await client.gql<{ users: { list: { id: string }[] } }>(`query ($o: ID) { users(organisationID: $o, includeGuestMembers: true, limit: 100) { list { id } } }`, {})).data!.users.list.some((u) => u.id === id);

  test("an organisation admin removes another organisation's guest from its reports and its guest list", async () => {
    const guest = await admittedGuest();
    expect(await listed(admin, guest.id)).toBe(true);
    expect((await admin.gql(USER_KICK, { id: guest.id, organisationID: demoId })).data).toEqual({ userKick: true });
    const [membership] = await first.db.select().from(guestMemberships).where(eq(guestMemberships.userId, guest.id));
    expect(membership?.archived).toBe(true);
    expect((await first.db.select().from(reportSubmissionAssignees).where(eq(reportSubmissionAssignees.userId, guest.id))).length).toBe(0);
    expect(await listed(admin, guest.id)).toBe(false);
    // Their account itself is untouched.
    expect((await first.db.select({ suspended: users.suspended }).from(users).where(eq(users.id, guest.id)))[0]!.suspended).toBe(false);
  });

  test("denied: a member, another organisation's owner, one's own organisation's staff, wrong ids", async () => {
    const guest = await admittedGuest();
    expect(codeOf(await member.gql(USER_KICK, { id: guest.id, organisationID: demoId }))).toBe("FORBIDDEN");
    const northwindOwner = await loginAs(first, "owner@northwind.test", DEMO_PASSWORD);
    expect(messageOf(await northwindOwner.gql(USER_KICK, { id: guest.id, organisationID: demoId }))).toBe("User is not found");
    const demoMember = (await first.db.select({ id: users.id }).from(users).where(eq(users.email, "member@demo.test")))[0]!;
    expect(messageOf(await admin.gql(USER_KICK, { id: demoMember.id, organisationID: demoId }))).toBe("User is not a guest member of this organisation.");
    expect(messageOf(await admin.gql(USER_KICK, { id: "nope", organisationID: demoId }))).toBe("User is not found");
    expect(messageOf(await admin.gql(USER_KICK, { id: guest.id, organisationID: "nope" }))).toBe("User is not found");
    expect((await first.db.select().from(guestMemberships).where(eq(guestMemberships.userId, guest.id)))[0]!.archived).toBe(false);
  });
});
