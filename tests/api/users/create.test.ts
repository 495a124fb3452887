import { describe, expect, test } from "bun:test";
import { and, count, eq, sql } from "drizzle-orm";
import { userActivities, users } from "../../../db/schema/index.ts";
import { NO_FREE_SEATS, seatUsage } from "../../../api/modules/organisations/seats.ts";
import { createOrganisation, createUser } from "../../factories/users.ts";
import { readOutbox } from "../../helpers/outbox-mail.ts";
import { loginAs } from "../../helpers/session.ts";
import { codeOf, messageOf, USER_CREATE, usersWorld } from "./users-fixture.ts";

/** userCreate (spec §7): who may create whom, where, with which password, and only into a free seat. */
const world = usersWorld();
let counter = 0;
const fresh = (overrides: Record<string, unknown> = {}) => {
  counter += 1;
  return { firstName: "New", lastName: `Person${counter}`, email: `new${counter}-${Date.now()}@example.test`, password: "a-good-pass-1", roleID: world.roleIds.MEMBER, ...overrides };
};
const userCount = async () => (await world.server.db.select({ n: count() }).from(users))[0]!.n;

describe("userCreate", () => {
  test("allowed: an owner creates a member of their organisation, unverified, mailed a verification code, audited", async () => {
    const input = fresh();
    const before = (await seatUsage(world.server.db, world.homeId))!.activeUsers;
    const created = await world.as.ORGANISATION_OWNER.gql<{ userCreate: { id: string; verified: boolean; role: { name: string }; organisation: { id: string } } }>(USER_CREATE, { input });
    expect(created.errors).toBeUndefined();
    expect(created.data?.userCreate).toMatchObject({ verified: false, role: { name: "MEMBER" }, organisation: { id: world.homeId } });
    expect((await seatUsage(world.server.db, world.homeId))!.activeUsers).toBe(before + 1);
    const mail = readOutbox(world.server.dataDir).find((message) => message.to.includes(input.email));
    expect(mail?.text).toContain("/admin/verify/");
    const [audit] = await world.server.db.select().from(userActivities).where(and(eq(userActivities.objectId, created.data!.userCreate.id), eq(userActivities.action, "Create")));
    expect(audit?.metadata).toMatchObject({ first_name: "New" });
    // The password is stored as an Argon2id hash, and signs in.
    const [row] = await world.server.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, created.data!.userCreate.id));
    expect(row!.passwordHash).toStartWith("$argon2id$");
    await loginAs(world.server, input.email, input.password);
  });

  test("denied by rank: an owner cannot create an owner, an admin cannot create an admin; members and guests not at all", async () => {
    const before = await userCount();
    expect(codeOf(await world.as.ORGANISATION_OWNER.gql(USER_CREATE, { input: fresh({ roleID: world.roleIds.ORGANISATION_OWNER }) }))).toBe("FORBIDDEN");
    expect(codeOf(await world.as.ORGANISATION_OWNER.gql(USER_CREATE, { input: fresh({ roleID: world.roleIds.SUPER_ADMIN }) }))).toBe("FORBIDDEN");
    expect(codeOf(await world.as.ORGANISATION_ADMIN.gql(USER_CREATE, { input: fresh({ roleID: world.roleIds.ORGANISATION_ADMIN }) }))).toBe("FORBIDDEN");
    expect(codeOf(await world.as.MEMBER.gql(USER_CREATE, { input: fresh() }))).toBe("FORBIDDEN");
    expect(codeOf(await world.as.GUEST_MEMBER.gql(USER_CREATE, { input: fresh() }))).toBe("FORBIDDEN");
    expect(await userCount()).toBe(before);
    const admin = await world.as.ORGANISATION_ADMIN.gql(USER_CREATE, { input: fresh() });
    expect(admin.errors).toBeUndefined();
  });

  test("denied: another organisation's id is not found to an owner; a super admin creates anywhere", async () => {
    expect(messageOf(await world.as.ORGANISATION_OWNER.gql(USER_CREATE, { input: fresh({ organisationID: world.otherId }) }))).toBe("Organisation is not found");
    const created = await world.as.SUPER_ADMIN.gql<{ userCreate: { organisation: { id: string } } }>(USER_CREATE, { input: fresh({ organisationID: world.otherId }) });
    expect(created.data?.userCreate.organisation.id).toBe(world.otherId);
  });

  test("a super admin: the organisation is required but for super admins and guests; super admins belong to none", async () => {
    const missing = await world.as.SUPER_ADMIN.gql(USER_CREATE, { input: fresh() });
    expect(messageOf(missing)).toBe("Required");
    const superAdmin = await world.as.SUPER_ADMIN.gql<{ userCreate: { role: { name: string }; organisation: null } }>(USER_CREATE, { input: fresh({ roleID: world.roleIds.SUPER_ADMIN }) });
    expect(superAdmin.data?.userCreate).toMatchObject({ role: { name: "SUPER_ADMIN" }, organisation: null });
    expect(messageOf(await world.as.SUPER_ADMIN.gql(USER_CREATE, { input: fresh({ roleID: world.roleIds.SUPER_ADMIN, organisationID: world.homeId }) }))).toBe("A Super Admin belongs to no organisation.");
    const guest = await world.as.SUPER_ADMIN.gql(USER_CREATE, { input: fresh({ roleID: world.roleIds.GUEST_MEMBER }) });
    expect(guest.errors).toBeUndefined();
  });

  test("two-factor cannot be switched on for someone else", async () => {
    expect(messageOf(await world.as.SUPER_ADMIN.gql(USER_CREATE, { input: fresh({ organisationID: world.homeId, twoFactorAuthenticationActivated: true }) }))).toBe(
      "Super Admins cannot enable Two-Factor Authentication.",
    );
    expect(codeOf(await world.as.ORGANISATION_OWNER.gql(USER_CREATE, { input: fresh({ twoFactorAuthenticationActivated: true }) }))).toBe("FORBIDDEN");
  });

  test("the password rule and a taken address are field errors; nothing is created", async () => {
    const before = await userCount();
    expect(messageOf(await world.as.ORGANISATION_OWNER.gql(USER_CREATE, { input: fresh({ password: "short1" }) }))).toBe("Password must contain at least 8 characters");
    expect(messageOf(await world.as.ORGANISATION_OWNER.gql(USER_CREATE, { input: fresh({ password: "lettersonly" }) }))).toBe("Password must contain at least 1 letter and number");
    const taken = await world.as.ORGANISATION_OWNER.gql(USER_CREATE, { input: fresh({ email: (await createUser(world.server.db, { role: "MEMBER", organisationId: world.homeId })).email.toUpperCase() }) });
    expect(messageOf(taken)).toBe("This email address is already in use.");
    expect(await userCount()).toBe(before + 1);
  });

  test("hostile input is the client's error and changes nothing", async () => {
    const before = await userCount();
    const attempts = [
      fresh({ firstName: "bad\u0000name" }),
      fresh({ lastName: "x".repeat(1_000_000) }),
      fresh({ email: "not-an-address" }),
      fresh({ firstName: "   " }),
      fresh({ firstName: "line\nbreak" }),
      fresh({ roleID: "'; drop table users; --" }),
      fresh({ avatarBlobID: crypto.randomUUID() }),
      fresh({ organisationID: "not-a-uuid" }),
    ];
    for (const input of attempts) {
      const answer = await world.as.ORGANISATION_OWNER.gql(USER_CREATE, { input });
      expect(answer.errors?.length).toBe(1);
      expect(["BAD_USER_INPUT", "NOT_FOUND"]).toContain(codeOf(answer)!);
    }
    // Wrong types never reach the verb.
    const wrong = await world.as.ORGANISATION_OWNER.gql(USER_CREATE, { input: { ...fresh(), firstName: 5 } });
    expect(wrong.errors?.length).toBe(1);
    expect(await userCount()).toBe(before);
  });

  test("seats: a full organisation refuses a new user; one freed by suspension is taken again", async () => {
    const full = await createOrganisation(world.server.db, { openSeatNumber: 2 });
    const owner = await createUser(world.server.db, { role: "ORGANISATION_OWNER", organisationId: full.id });
    const client = await loginAs(world.server, owner.email, owner.password);
    const second = await client.gql<{ userCreate: { id: string } }>(USER_CREATE, { input: fresh() });
    expect(second.errors).toBeUndefined();
    const refused = await client.gql(USER_CREATE, { input: fresh() });
    expect(messageOf(refused)).toBe(NO_FREE_SEATS);
    const secondId = second.data!.userCreate.id;
    expect((await client.gql(`mutation ($id: ID!) { userSuspend(id: $id) { id } }`, { id: secondId })).errors).toBeUndefined();
    expect((await seatUsage(world.server.db, full.id))!.activeUsers).toBe(1);
    const third = await client.gql(USER_CREATE, { input: fresh() });
    expect(third.errors).toBeUndefined();
    // Unsuspending needs a free seat, and there is none now.
    expect(messageOf(await client.gql(`mutation ($id: ID!) { userUnsuspend(id: $id) { id } }`, { id: secondId }))).toBe(NO_FREE_SEATS);
    expect((await seatUsage(world.server.db, full.id))!.activeUsers).toBe(2);
  });

  test("concurrent creations into the last free seat: exactly one wins", async () => {
    const org = await createOrganisation(world.server.db, { openSeatNumber: 2 });
    const owner = await createUser(world.server.db, { role: "ORGANISATION_OWNER", organisationId: org.id });
    const client = await loginAs(world.server, owner.email, owner.password);
    const answers = await Promise.all(Array.from({ length: 6 }, () => client.gql(USER_CREATE, { input: fresh() })));
    expect(answers.filter((answer) => !answer.errors).length).toBe(1);
    expect(answers.filter((answer) => messageOf(answer) === NO_FREE_SEATS).length).toBe(5);
    const [members] = await world.server.db.select({ n: count() }).from(users).where(sql`${users.organisationId} = ${org.id}`);
    expect(members!.n).toBe(2);
  });
});
