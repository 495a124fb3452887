import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { emailChanges, organisations, users } from "../../../db/schema/index.ts";
import { createUser } from "../../factories/users.ts";
import { mailsTo } from "../../helpers/mail-links.ts";
import { serverWithOrganisation } from "../../helpers/organisations.ts";
import { loginAs } from "../../helpers/session.ts";
import { authenticator, giveTwoFactor, userRowOpened } from "../../helpers/two-factor.ts";

// An administrator changing another user's address, password or two-factor proves their own
// account first (decision 061): a stolen admin session must not hand over someone else's account.

const env = serverWithOrganisation();

const USER_UPDATE = `mutation ($id: ID!, $input: UserUpdateInput!) { userUpdate(id: $id, input: $input) { id email } }`;
const SWITCH_OFF = `mutation ($id: ID!, $password: String, $passcode: String) {
  userTwoFactorAuthenticationUpdate(userID: $id, activated: false, password: $password, passcode: $passcode) }`;
type Answer = { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: { code?: string; fields?: { field: string }[] } }[] };

// With the authenticator key opened: the column holds it sealed (decision 062).
const rowOf = (id: string) => userRowOpened(env.server.db, id);
const staff = (role: "ORGANISATION_OWNER" | "MEMBER" | "SUPER_ADMIN") => createUser(env.server.db, { role, organisationId: role === "SUPER_ADMIN" ? null : env.organisationId });

async function signedIn(role: "ORGANISATION_OWNER" | "SUPER_ADMIN") {
  const user = await staff(role);
  return { user, client: await loginAs(env.server, user.email, user.password) };
}

describe("a super admin turning off another user's two-factor", () => {
  test("refused without the super admin's own password, or with a wrong one; nothing changes", async () => {
    const admin = await signedIn("SUPER_ADMIN");
    const target = await staff("MEMBER");
    const { secret } = await giveTwoFactor(env.server.db, target.id);
    for (const variables of [{ id: target.id }, { id: target.id, password: "wrong-pass-12" }]) {
      const answer = (await admin.client.gql(SWITCH_OFF, variables)) as Answer;
      expect(answer.data ?? null).toBeNull();
      expect(answer.errors?.[0]?.extensions?.fields?.[0]?.field).toBe("password");
    }
    const viaUpdate = (await admin.client.gql(USER_UPDATE, { id: target.id, input: { twoFactorAuthenticationActivated: false } })) as Answer;
    expect(viaUpdate.errors?.[0]?.message).toBe("Enter your current password to confirm it is you.");
    expect(await rowOf(target.id)).toMatchObject({ twoFactorAuthenticationActivated: true, twoFactorSecret: secret });
  });

  test("with the super admin's own password it is turned off, by either call", async () => {
    const admin = await signedIn("SUPER_ADMIN");
    const first = await staff("MEMBER");
    const second = await staff("MEMBER");
    await giveTwoFactor(env.server.db, first.id);
    await giveTwoFactor(env.server.db, second.id);
    expect(await admin.client.gql(SWITCH_OFF, { id: first.id, password: admin.user.password })).toEqual({ data: { userTwoFactorAuthenticationUpdate: true } });
    const viaUpdate = (await admin.client.gql(USER_UPDATE, { id: second.id, input: { twoFactorAuthenticationActivated: false, ownPassword: admin.user.password } })) as Answer;
    expect(viaUpdate.errors).toBeUndefined();
    expect((await rowOf(first.id)).twoFactorAuthenticationActivated).toBe(false);
    expect((await rowOf(second.id)).twoFactorAuthenticationActivated).toBe(false);
  });

  test("a super admin with two-factor on gives their passcode too", async () => {
    const admin = await staff("SUPER_ADMIN");
    const { secret } = await giveTwoFactor(env.server.db, admin.id);
    const client = await loginAs(env.server, admin.email, admin.password);
    const phone = authenticator(secret);
    const passed = await client.fetch("/api/auth/two_factor/verification", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ passcode: phone.nextPasscode() }) });
    expect(passed.status).toBe(200);
    const target = await staff("MEMBER");
    await giveTwoFactor(env.server.db, target.id);
    const without = (await client.gql(SWITCH_OFF, { id: target.id, password: admin.password })) as Answer;
    expect(without.errors?.[0]?.extensions?.fields?.[0]?.field).toBe("passcode");
    expect((await rowOf(target.id)).twoFactorAuthenticationActivated).toBe(true);
    expect(await client.gql(SWITCH_OFF, { id: target.id, password: admin.password, passcode: phone.nextPasscode() })).toEqual({ data: { userTwoFactorAuthenticationUpdate: true } });
    expect((await rowOf(target.id)).twoFactorAuthenticationActivated).toBe(false);
  });
});

describe("an owner changing a member's address or password", () => {
  test("refused without the owner's own password; names alone need none", async () => {
    const owner = await signedIn("ORGANISATION_OWNER");
    const target = await staff("MEMBER");
    const before = await rowOf(target.id);
    for (const input of [{ email: `taken-over-${target.id}@evil.test` }, { password: "replaced-pass-1" }, { password: "replaced-pass-1", ownPassword: "wrong-pass-12" }]) {
      const answer = (await owner.client.gql(USER_UPDATE, { id: target.id, input })) as Answer;
      expect(answer.data?.userUpdate ?? null).toBeNull();
      // The owner's own password is `ownPassword` here: `password` is the new one they set.
      expect(answer.errors?.[0]?.extensions?.fields?.[0]?.field).toBe("ownPassword");
    }
    const after = await rowOf(target.id);
    expect(after).toMatchObject({ email: before.email, passwordHash: before.passwordHash });
    expect(await env.server.db.select().from(emailChanges).where(eq(emailChanges.userId, target.id))).toEqual([]);
    const renamed = (await owner.client.gql(USER_UPDATE, { id: target.id, input: { firstName: "Renamed" } })) as Answer;
    expect(renamed.errors).toBeUndefined();
  });

  test("with the owner's password a new address waits for its link, and a new password is set", async () => {
    const owner = await signedIn("ORGANISATION_OWNER");
    const target = await staff("MEMBER");
    const to = `moved-${target.id}@example.test`;
    const moved = (await owner.client.gql(USER_UPDATE, { id: target.id, input: { email: to, ownPassword: owner.user.password } })) as Answer;
    expect(moved.errors).toBeUndefined();
    expect((await rowOf(target.id)).email).toBe(target.email);
    expect(mailsTo(env.server.dataDir, to).map((mail) => mail.subject)).toEqual(["Confirm your new email address"]);
    expect(mailsTo(env.server.dataDir, target.email).map((mail) => mail.subject)).toContain("A change of your email address was requested");
    const reset = (await owner.client.gql(USER_UPDATE, { id: target.id, input: { password: "replaced-pass-1", ownPassword: owner.user.password } })) as Answer;
    expect(reset.errors).toBeUndefined();
    await loginAs(env.server, target.email, "replaced-pass-1");
  });

  test("one's own address through userUpdate needs one's password too", async () => {
    const owner = await signedIn("ORGANISATION_OWNER");
    const answer = (await owner.client.gql(USER_UPDATE, { id: owner.user.id, input: { email: `self-${owner.user.id}@evil.test` } })) as Answer;
    expect(answer.errors?.[0]?.message).toBe("Enter your current password to confirm it is you.");
    expect(await env.server.db.select().from(emailChanges).where(eq(emailChanges.userId, owner.user.id))).toEqual([]);
  });
});

describe("a super admin changing how an organisation's accounts sign in", () => {
  const ORGANISATION_UPDATE = `mutation ($id: ID!, $input: OrganisationUpdateInput!) { organisationUpdate(id: $id, input: $input) { id enableEmailAuth2FA enableSSO abn } }`;
  const settingsOf = async () => (await env.server.db.select().from(organisations).where(eq(organisations.id, env.organisationId)))[0]!;

  test("magic links or single sign-on on or off: refused without the super admin's own password, or with a wrong one; nothing changes", async () => {
    const admin = await signedIn("SUPER_ADMIN");
    const before = await settingsOf();
    for (const input of [{ enableEmailAuth2FA: !before.enableEmailAuth2FA }, { enableSSO: !before.enableSSO, abn: "123" }, { enableSSO: !before.enableSSO, ownPassword: "wrong-pass-12" }]) {
      const answer = (await admin.client.gql(ORGANISATION_UPDATE, { id: env.organisationId, input })) as Answer;
      expect(answer.data?.organisationUpdate ?? null).toBeNull();
      expect(answer.errors?.[0]?.extensions?.fields?.[0]?.field).toBe("ownPassword");
    }
    expect(await settingsOf()).toMatchObject({ enableEmailAuth2FA: before.enableEmailAuth2FA, enableSSO: before.enableSSO, abn: before.abn });
  });

  test("with the super admin's own password they change; other settings, or the same values, need none", async () => {
    const admin = await signedIn("SUPER_ADMIN");
    const before = await settingsOf();
    const unchanged = (await admin.client.gql(ORGANISATION_UPDATE, { id: env.organisationId, input: { abn: "98 765", enableSSO: before.enableSSO } })) as Answer;
    expect(unchanged.errors).toBeUndefined();
    const changed = (await admin.client.gql(ORGANISATION_UPDATE, { id: env.organisationId, input: { enableEmailAuth2FA: !before.enableEmailAuth2FA, ownPassword: admin.user.password } })) as Answer;
    expect(changed.errors).toBeUndefined();
    expect(await settingsOf()).toMatchObject({ enableEmailAuth2FA: !before.enableEmailAuth2FA, abn: "98 765" });
  });
});
