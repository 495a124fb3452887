import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { onboardInvites, organisations, roles, userActivities } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { readOutbox, tokenAfter, waitForMail } from "../../helpers/outbox-mail.ts";
import { updateOrganisations } from "../../helpers/organisations.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, demoStaff, loginAs, type DemoStaff, type StaffClient } from "../../helpers/session.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { inviteSubject } from "../../../api/modules/invites/mails.ts";

// The staff side of invites: who may list, create, resend, archive and unarchive them, and what
// each writes (spec admin console §2 Invites, §4, §6; decision 035).

let server: TestServer;
let as: DemoStaff;
let nwOwner: StaffClient;
const org: Record<string, string> = {};
const role: Record<string, string> = {};

type Data = Record<string, any>;
type Result = { data?: Data | null; errors?: { message: string; extensions?: { code?: string } }[] };
const INVITE = `id firstName lastName email status createdAt expiresAt archived roleID roleName roleLabel organisation { id name enableSSO }`;
const Q = {
  list: `query ($o: ID, $s: String, $f: ListFilter, $l: Int, $off: Int) { onboardInvites(organisationID: $o, search: $s, filter: $f, limit: $l, offset: $off) { total list { ${INVITE} } seats { openSeatNumber activeUsers pendingInvites } } }`,
  create: `mutation ($o: ID, $input: OnboardInviteInput!) { onboardInviteCreate(organisationID: $o, input: $input) { hasEmailSent invite { ${INVITE} } } }`,
  resend: `mutation ($id: ID!) { resendOnboardInvite(id: $id) { ${INVITE} } }`,
  archive: `mutation ($id: ID!) { onboardInviteArchive(id: $id) { ${INVITE} } }`,
  unarchive: `mutation ($id: ID!) { onboardInviteUnarchive(id: $id) { ${INVITE} } }`,
};
const message = (result: Result) => result.errors?.[0]?.message;
const code = (result: Result) => result.errors?.[0]?.extensions?.code;
const emails = (result: Result) => result.data?.onboardInvites.list.map((invite: { email: string }) => invite.email);
const audit = (objectId: string, action: string) => server.db.select().from(userActivities).where(and(eq(userActivities.objectId, objectId), eq(userActivities.action, action)));
const inviteRow = async (id: string) => (await server.db.select().from(onboardInvites).where(eq(onboardInvites.id, id)))[0]!;
let counter = 0;
const input = (roleName = "MEMBER", overrides: Record<string, unknown> = {}) => ({ firstName: "Ada", lastName: "Lovelace", email: `invitee${++counter}@example.com`, roleID: role[roleName], ...overrides });

async function invite(client: StaffClient, variables: Record<string, unknown>): Promise<Data> {
  const result = await client.gql<Data>(Q.create, variables);
  expect(result.errors).toBeUndefined();
  return result.data!.onboardInviteCreate.invite;
}

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  as = await demoStaff(server);
  nwOwner = await loginAs(server, "owner@northwind.test", DEMO_PASSWORD);
  for (const row of await server.db.select().from(organisations)) org[row.slug] = row.id;
  for (const row of await server.db.select().from(roles)) role[row.name] = row.id;
  // Room for every invite these tests send; the seat limit itself is tested in invite-seats.test.ts.
  await updateOrganisations(server, eq(organisations.id, org.demo!), { openSeatNumber: 100 });
});
afterAll(() => server.stop());

describe("onboardInviteCreate", () => {
  test("allowed: an owner invites a member; the invite is Invited, audited, holds a seat, and the mail links to /onboarding/{token}", async () => {
    const seen = readOutbox(server.dataDir);
    const before = (await as.owner.gql<Data>(Q.list, {})).data?.onboardInvites.seats;
    const result = await as.owner.gql<Data>(Q.create, { input: input("MEMBER", { email: "  New.Person@Example.COM ", firstName: " New " }) });
    expect(result.errors).toBeUndefined();
    const created = result.data!.onboardInviteCreate;
    expect(created.hasEmailSent).toBe(true);
    expect(created.invite).toMatchObject({ firstName: "New", email: "new.person@example.com", status: "Invited", archived: false, roleID: role.MEMBER, roleName: "MEMBER", roleLabel: "Member", organisation: { id: org.demo, name: "Demo Organisation", enableSSO: false } });
    const after = (await as.owner.gql<Data>(Q.list, {})).data?.onboardInvites.seats;
    expect(after.pendingInvites).toBe(before.pendingInvites + 1);
    expect((await audit(created.invite.id, "Create"))[0]).toMatchObject({ objectType: "OnboardInvite", organisationId: org.demo, metadata: { first_name: "New", last_name: "Lovelace", email: "new.person@example.com" } });

    const mail = await waitForMail(server.dataDir, { to: "new.person@example.com", subject: inviteSubject("Demo Organisation"), seen });
    expect(mail.text).toMatch(/http:\/\/app\.localhost:\d+\/onboarding\/[A-Za-z0-9_-]{43}/);
    const token = tokenAfter(mail, "/onboarding/");
    // Only the hash is stored.
    const row = await inviteRow(created.invite.id);
    expect(row.tokenHash).not.toContain(token);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(7 * 24 * 60 * 60 * 1000);
  });

  test("allowed: an admin invites a member; a super admin invites an owner into a named organisation", async () => {
    expect((await invite(as.admin, { input: input("MEMBER") })).organisation.id).toBe(org.demo);
    const owner = await invite(as.superAdmin, { o: org.northwind, input: input("ORGANISATION_OWNER") });
    expect(owner).toMatchObject({ roleName: "ORGANISATION_OWNER", organisation: { id: org.northwind } });
  });

  test("denied: members and guests cannot create invites; anonymous callers must sign in", async () => {
    for (const client of [as.member, as.guest]) {
      const result = await client.gql<Data>(Q.create, { input: input() });
      expect({ code: code(result), message: message(result) }).toEqual({ code: "FORBIDDEN", message: "Members cannot create invites" });
    }
    expect(code(await anonymous(server).gql<Data>(Q.create, { input: input() }))).toBe("UNAUTHENTICATED");
  });

  test("denied by rank: a role at or above the actor's, a super admin or guest member role, or an unknown role", async () => {
    const cases: [StaffClient, string, string][] = [
      [as.owner, "ORGANISATION_OWNER", "You can only invite users to a role below your own."],
      [as.admin, "ORGANISATION_ADMIN", "You can only invite users to a role below your own."],
      [as.admin, "ORGANISATION_OWNER", "You can only invite users to a role below your own."],
      [as.owner, "SUPER_ADMIN", "Invalid role"],
      [as.owner, "GUEST_MEMBER", "Invalid role"],
      [as.superAdmin, "SUPER_ADMIN", "Invalid role"],
    ];
    for (const [client, roleName, expected] of cases) {
      const variables = client === as.superAdmin ? { o: org.demo, input: input(roleName) } : { input: input(roleName) };
      expect(message(await client.gql<Data>(Q.create, variables))).toBe(expected);
    }
    expect(message(await as.owner.gql<Data>(Q.create, { input: input("MEMBER", { roleID: crypto.randomUUID() }) }))).toBe("Invalid role");
  });

  test("denied: another organisation's id is not found; a super admin must name an organisation", async () => {
    expect(message(await nwOwner.gql<Data>(Q.create, { o: org.demo, input: input() }))).toBe("Organisation is not found");
    expect(message(await as.owner.gql<Data>(Q.create, { o: "not-a-uuid", input: input() }))).toBe("Organisation is not found");
    expect(message(await as.superAdmin.gql<Data>(Q.create, { input: input() }))).toBe("Required");
    expect(message(await as.superAdmin.gql<Data>(Q.create, { o: crypto.randomUUID(), input: input() }))).toBe("Organisation is not found");
  });

  test("refused: an address that is already a user's, and a second open invite for one address", async () => {
    const user = await as.owner.gql<Data>(Q.create, { input: input("MEMBER", { email: "MEMBER@demo.test" }) });
    expect({ code: code(user), message: message(user) }).toEqual({ code: "CONFLICT", message: "A user with this email address already exists." });
    const first = await invite(as.owner, { input: input("MEMBER", { email: "twice@example.com" }) });
    const second = await as.admin.gql<Data>(Q.create, { input: input("MEMBER", { email: "Twice@Example.com" }) });
    expect(message(second)).toBe('An invite for "twice@example.com" is already open in this organisation. Resend it from the list instead.');
    // Once archived, the address may be invited afresh.
    await as.owner.gql<Data>(Q.archive, { id: first.id });
    expect((await invite(as.owner, { input: input("MEMBER", { email: "twice@example.com" }) })).email).toBe("twice@example.com");
  });

  test("hostile input: missing, blank, NUL, huge and wrong-typed values are clear refusals and change nothing", async () => {
    const count = async () => (await server.db.select().from(onboardInvites)).length;
    const before = await count();
    const bad: [Record<string, unknown>, string][] = [
      [{ ...input(), firstName: "   " }, "Required"],
      [{ ...input(), lastName: undefined }, "Required"],
      [{ ...input(), email: "not-an-email" }, "Invalid email address"],
      [{ ...input(), roleID: "" }, "Required"],
      [{ ...input(), roleID: undefined }, "Required"],
      [{ ...input(), firstName: "Ada\u0000" }, "Text must not contain NUL characters."],
      [{ ...input(), firstName: "x".repeat(1_000_000) }, ""],
      [{ ...input(), email: `${"a".repeat(300)}@example.com` }, ""],
      [{ ...input(), email: `${"a".repeat(250)}@example.com` }, "Invalid email address"],
      [{ ...input(), roleID: "'; drop table users; --" }, "Invalid role"],
    ];
    for (const [variables, expected] of bad) {
      const result = await as.owner.gql<Data>(Q.create, { input: variables });
      expect(code(result)).toBe("BAD_USER_INPUT");
      if (expected) expect(message(result)).toBe(expected);
    }
    const wrongType = await as.owner.gql<Data>(Q.create, { input: { ...input(), firstName: 42 } });
    expect(wrongType.errors?.length).toBeGreaterThan(0);
    expect(wrongType.data ?? null).toBeNull();
    expect(await count()).toBe(before);
  });
});

describe("onboardInvites", () => {
  test("allowed: owners and admins list their organisation's invites with search, filter and paging; a super admin names one or sees all", async () => {
    await invite(as.owner, { input: input("ORGANISATION_ADMIN", { firstName: "Grace", lastName: "Hopper", email: "grace@example.com" }) });
    const own = await as.admin.gql<Data>(Q.list, {});
    expect(own.data?.onboardInvites.list.every((i: Data) => i.organisation.id === org.demo)).toBe(true);
    expect(own.data?.onboardInvites.seats).toMatchObject({ openSeatNumber: 100, activeUsers: 4 });
    expect(emails(await as.owner.gql<Data>(Q.list, { s: "HOPPER" }))).toEqual(["grace@example.com"]);
    expect(emails(await as.owner.gql<Data>(Q.list, { s: "grace@" }))).toEqual(["grace@example.com"]);
    const archived = emails(await as.owner.gql<Data>(Q.list, { f: "Archived" }));
    expect(archived).toContain("twice@example.com");
    const all = await as.owner.gql<Data>(Q.list, { f: "All" });
    expect(all.data?.onboardInvites.total).toBe(own.data!.onboardInvites.total + archived.length);
    const page = await as.owner.gql<Data>(Q.list, { l: 1, off: 1 });
    expect(page.data?.onboardInvites.list).toHaveLength(1);
    expect(page.data?.onboardInvites.list[0].id).toBe(own.data!.onboardInvites.list[1].id);
    // Newest first.
    expect(own.data?.onboardInvites.list[0].email).toBe("grace@example.com");
    const everywhere = await as.superAdmin.gql<Data>(Q.list, {});
    expect(new Set(everywhere.data?.onboardInvites.list.map((i: Data) => i.organisation.id))).toEqual(new Set([org.demo, org.northwind]));
    expect(everywhere.data?.onboardInvites.seats).toBeNull();
    expect(emails(await as.superAdmin.gql<Data>(Q.list, { o: org.northwind })).length).toBeGreaterThan(0);
  });

  test("denied: members and guests, another organisation's id, malformed and hostile arguments", async () => {
    for (const client of [as.member, as.guest]) expect(message(await client.gql<Data>(Q.list, {}))).toBe("Members cannot create invites");
    expect(message(await nwOwner.gql<Data>(Q.list, { o: org.demo }))).toBe("Organisation is not found");
    expect(message(await as.owner.gql<Data>(Q.list, { o: "nope" }))).toBe("Organisation is not found");
    expect(code(await as.owner.gql<Data>(Q.list, { s: "x".repeat(201) }))).toBe("BAD_USER_INPUT");
    expect(code(await as.owner.gql<Data>(Q.list, { s: "a\u0000" }))).toBe("BAD_USER_INPUT");
    expect(code(await anonymous(server).gql<Data>(Q.list, {}))).toBe("UNAUTHENTICATED");
    // Invalid page sizes fall back to 20.
    expect((await as.owner.gql<Data>(Q.list, { l: -5, off: -1 })).errors).toBeUndefined();
  });
});

describe("resendOnboardInvite", () => {
  test("allowed while Invited: a new link replaces the old, with a new week, audited", async () => {
    const seen = readOutbox(server.dataDir);
    const created = await invite(as.owner, { input: input("MEMBER", { email: "resend@example.com" }) });
    const subject = inviteSubject("Demo Organisation");
    const first = await waitForMail(server.dataDir, { to: "resend@example.com", subject, seen });
    const before = await inviteRow(created.id);
    const resent = await as.admin.gql<Data>(Q.resend, { id: created.id });
    expect(resent.errors).toBeUndefined();
    expect(resent.data?.resendOnboardInvite).toMatchObject({ id: created.id, status: "Invited" });
    const second = await waitForMail(server.dataDir, { to: "resend@example.com", subject, seen: [...seen, first] });
    expect(tokenAfter(second, "/onboarding/")).not.toBe(tokenAfter(first, "/onboarding/"));
    const after = await inviteRow(created.id);
    expect(after.tokenHash).not.toBe(before.tokenHash);
    expect(after.expiresAt.getTime()).toBeGreaterThanOrEqual(before.expiresAt.getTime());
    expect(await audit(created.id, "Resend")).toHaveLength(1);
  });

  test("denied: archived or Onboarded invites, members, other organisations, higher roles, unknown ids", async () => {
    const created = await invite(as.owner, { input: input() });
    expect(message(await as.member.gql<Data>(Q.resend, { id: created.id }))).toBe("Members cannot create invites");
    expect(message(await nwOwner.gql<Data>(Q.resend, { id: created.id }))).toBe("Invite is not found");
    expect(message(await as.owner.gql<Data>(Q.resend, { id: "nope" }))).toBe("Invite is not found");
    expect(message(await as.owner.gql<Data>(Q.resend, { id: crypto.randomUUID() }))).toBe("Invite is not found");
    const adminInvite = await invite(as.owner, { input: input("ORGANISATION_ADMIN") });
    expect(message(await as.admin.gql<Data>(Q.resend, { id: adminInvite.id }))).toBe("You can only manage invites for roles below your own.");
    await as.owner.gql<Data>(Q.archive, { id: created.id });
    expect(message(await as.owner.gql<Data>(Q.resend, { id: created.id }))).toBe("An archived invite cannot be resent. Unarchive it first.");
    await server.db.update(onboardInvites).set({ status: "Onboarded", archived: false }).where(eq(onboardInvites.id, adminInvite.id));
    expect(message(await as.owner.gql<Data>(Q.resend, { id: adminInvite.id }))).toBe("Only invites that are still Invited can be resent.");
  });
});

describe("onboardInviteArchive and onboardInviteUnarchive", () => {
  test("allowed: archiving frees the seat, unarchiving takes one again; both audited", async () => {
    const created = await invite(as.admin, { input: input() });
    const seats = async () => (await as.owner.gql<Data>(Q.list, {})).data?.onboardInvites.seats.pendingInvites as number;
    const holding = await seats();
    const archived = await as.admin.gql<Data>(Q.archive, { id: created.id });
    expect(archived.data?.onboardInviteArchive.archived).toBe(true);
    expect(await seats()).toBe(holding - 1);
    expect(message(await as.admin.gql<Data>(Q.archive, { id: created.id }))).toBe("Invite is already archived.");
    const restored = await as.owner.gql<Data>(Q.unarchive, { id: created.id });
    expect(restored.data?.onboardInviteUnarchive.archived).toBe(false);
    expect(await seats()).toBe(holding);
    expect(message(await as.owner.gql<Data>(Q.unarchive, { id: created.id }))).toBe("Invite is not archived.");
    expect((await audit(created.id, "Archive"))[0]?.metadata).toMatchObject({ archived: true });
    expect((await audit(created.id, "Unarchive"))[0]?.metadata).toMatchObject({ archived: false });
    // A super admin reaches any organisation's invites.
    expect((await as.superAdmin.gql<Data>(Q.archive, { id: created.id })).data?.onboardInviteArchive.archived).toBe(true);
  });

  test("denied: members, guests, other organisations, higher roles; unarchiving a second open invite for one address", async () => {
    const created = await invite(as.owner, { input: input("MEMBER", { email: "again@example.com" }) });
    for (const client of [as.member, as.guest]) {
      expect(message(await client.gql<Data>(Q.archive, { id: created.id }))).toBe("Members cannot create invites");
      expect(message(await client.gql<Data>(Q.unarchive, { id: created.id }))).toBe("Members cannot create invites");
    }
    expect(message(await nwOwner.gql<Data>(Q.archive, { id: created.id }))).toBe("Invite is not found");
    const adminInvite = await invite(as.owner, { input: input("ORGANISATION_ADMIN") });
    expect(message(await as.admin.gql<Data>(Q.archive, { id: adminInvite.id }))).toBe("You can only manage invites for roles below your own.");
    await as.owner.gql<Data>(Q.archive, { id: created.id });
    await invite(as.owner, { input: input("MEMBER", { email: "again@example.com" }) });
    expect(message(await as.owner.gql<Data>(Q.unarchive, { id: created.id }))).toBe('An invite for "again@example.com" is already open in this organisation. Resend it from the list instead.');
    expect((await inviteRow(created.id)).archived).toBe(true);
  });
});
