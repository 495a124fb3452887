import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { sessions, users } from "../../../db/schema/index.ts";
import { createUser } from "../../factories/users.ts";
import { serverWithOrganisation } from "../../helpers/organisations.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";
import { authenticator, giveTwoFactor, userRowOpened } from "../../helpers/two-factor.ts";
import { passcodeAt, totpStep } from "../../../api/modules/auth/two-factor/codes.ts";

// Two-factor on or off, a new password and a new recovery code each ask for proof of the account
// (decision 061): the session cookie alone is not the account.

const env = serverWithOrganisation();

const TWO_FACTOR = `mutation ($input: ChangeDetailsInput!) { changeDetails(input: $input) { twoFactorAuthenticationActivated } }`;
const CHANGE_PASSWORD = `mutation ($old: String!, $new: String!, $passcode: String) { changePassword(oldPassword: $old, newPassword: $new, passcode: $passcode) }`;
const RECOVERY = `query ($password: String, $passcode: String) { twoFactorRecoveryCode(password: $password, passcode: $passcode) }`;
type Answer = { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: { code?: string; fields?: { field: string }[] } }[] };

// With the authenticator key opened: the column holds it sealed (decision 062).
const rowOf = (id: string) => userRowOpened(env.server.db, id);

async function member() {
  const user = await createUser(env.server.db, { role: "MEMBER", organisationId: env.organisationId });
  return { user, client: await loginAs(env.server, user.email, user.password) };
}

/** A member with a confirmed authenticator, signed in with a passcode as the login screens do. */
async function memberWithTwoFactor() {
  const { user } = await member();
  const { secret, recoveryCode } = await giveTwoFactor(env.server.db, user.id);
  const client = await loginAs(env.server, user.email, user.password);
  const phone = authenticator(secret);
  const passed = await client.fetch("/api/auth/two_factor/verification", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ passcode: phone.nextPasscode() }) });
  expect(passed.status).toBe(200);
  return { user, client, phone, secret, recoveryCode };
}

const switchTwoFactor = (client: StaffClient, input: Record<string, unknown>) => client.gql(TWO_FACTOR, { input }) as Promise<Answer>;
const firstError = (answer: Answer) => ({ message: answer.errors?.[0]?.message, field: answer.errors?.[0]?.extensions?.fields?.[0]?.field });

describe("two-factor on and off", () => {
  test("the tester's finding: a signed-in session alone cannot turn two-factor off; the password alone cannot either", async () => {
    const { user, client, secret } = await memberWithTwoFactor();
    expect(firstError(await switchTwoFactor(client, { twoFactorAuthenticationActivated: false }))).toEqual({ message: "Enter your current password to confirm it is you.", field: "password" });
    expect(firstError(await switchTwoFactor(client, { twoFactorAuthenticationActivated: false, password: user.password }))).toEqual({
      message: "Enter the passcode from your authenticator app, or your recovery code, to confirm it is you.",
      field: "passcode",
    });
    expect(await rowOf(user.id)).toMatchObject({ twoFactorAuthenticationActivated: true, twoFactorAuthenticationIsSet: true, twoFactorSecret: secret });
  });

  test("a wrong passcode, another account's passcode and the passcode already used to sign in are refused", async () => {
    const { user, client, secret } = await memberWithTwoFactor();
    const other = await memberWithTwoFactor();
    const step = totpStep(new Date());
    const usedAtSignIn = (await rowOf(user.id)).twoFactorLastStep!;
    for (const passcode of ["000000", other.phone.passcodeAt(step), passcodeAt(secret, usedAtSignIn), "12345\u0000"]) {
      const answer = await switchTwoFactor(client, { twoFactorAuthenticationActivated: false, password: user.password, passcode });
      expect(answer.data ?? null).toBeNull();
      expect(answer.errors?.[0]?.message).toBeTruthy();
    }
    expect(await rowOf(user.id)).toMatchObject({ twoFactorAuthenticationActivated: true, twoFactorSecret: secret });
    // Each wrong code counted against the session, as at sign-in (the NUL one never reached the check): the fifth ends it.
    const failures = await env.server.db.select({ failures: sessions.twoFactorFailures }).from(sessions).where(eq(sessions.userId, user.id));
    expect(Math.max(...failures.map((row) => row.failures))).toBe(3);
    await switchTwoFactor(client, { twoFactorAuthenticationActivated: false, password: user.password, passcode: "222222" });
    const fifth = await switchTwoFactor(client, { twoFactorAuthenticationActivated: false, password: user.password, passcode: "111111" });
    expect(fifth.errors?.[0]).toMatchObject({ message: "Too many incorrect codes. Please sign in again.", extensions: { code: "UNAUTHENTICATED" } });
    expect((await client.gql<{ viewer: unknown }>("{ viewer { id } }")).data?.viewer ?? null).toBeNull();
  });

  test("password and a fresh passcode turn it off; the same passcode cannot be used for a second change", async () => {
    const { user, client, phone } = await memberWithTwoFactor();
    const passcode = phone.nextPasscode();
    const off = await switchTwoFactor(client, { twoFactorAuthenticationActivated: false, password: user.password, passcode });
    expect(off).toEqual({ data: { changeDetails: { twoFactorAuthenticationActivated: false } } });
    expect(await rowOf(user.id)).toMatchObject({ twoFactorAuthenticationActivated: false, twoFactorSecret: null, recoveryCodeHash: null });

    const again = await memberWithTwoFactor();
    const code = again.phone.nextPasscode();
    const first = await again.client.gql(CHANGE_PASSWORD, { old: again.user.password, new: "brand-new-pass-9", passcode: code });
    expect(first.errors).toBeUndefined();
    const relogged = await loginAs(env.server, again.user.email, "brand-new-pass-9");
    const replay = await relogged.fetch("/api/auth/two_factor/verification", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ passcode: code }) });
    expect(replay.status).toBe(400);
  });

  test("the recovery code stands in for the passcode, once", async () => {
    const { user, client, recoveryCode } = await memberWithTwoFactor();
    const off = await switchTwoFactor(client, { twoFactorAuthenticationActivated: false, password: user.password, recoveryCode: recoveryCode.toLowerCase() });
    expect(off.errors).toBeUndefined();
    expect((await rowOf(user.id)).twoFactorAuthenticationActivated).toBe(false);
  });

  test("turning it on needs the password; without it nothing changes", async () => {
    const { user, client } = await member();
    expect(firstError(await switchTwoFactor(client, { twoFactorAuthenticationActivated: true }))).toEqual({ message: "Enter your current password to confirm it is you.", field: "password" });
    expect(firstError(await switchTwoFactor(client, { twoFactorAuthenticationActivated: true, password: "wrong-password-1" }))).toEqual({ message: "The password is incorrect.", field: "password" });
    expect((await rowOf(user.id)).twoFactorAuthenticationActivated).toBe(false);
    const on = await switchTwoFactor(client, { twoFactorAuthenticationActivated: true, password: user.password });
    expect(on.errors).toBeUndefined();
    expect((await rowOf(user.id)).twoFactorAuthenticationActivated).toBe(true);
  });

  test("a long password, as long as sign-in takes, proves the account", async () => {
    const password = `${"long-passphrase ".repeat(60)}9`;
    const user = await createUser(env.server.db, { role: "MEMBER", organisationId: env.organisationId, password });
    const client = await loginAs(env.server, user.email, password);
    const on = await switchTwoFactor(client, { twoFactorAuthenticationActivated: true, password });
    expect(on.errors).toBeUndefined();
    expect((await rowOf(user.id)).twoFactorAuthenticationActivated).toBe(true);
  });
});

describe("a new password and a new recovery code", () => {
  test("with two-factor on, changing the password needs the passcode too", async () => {
    const { user, client, phone } = await memberWithTwoFactor();
    const before = (await rowOf(user.id)).passwordHash;
    const refused = (await client.gql(CHANGE_PASSWORD, { old: user.password, new: "another-pass-7" })) as Answer;
    expect(firstError(refused).field).toBe("passcode");
    expect((await rowOf(user.id)).passwordHash).toBe(before);
    const done = await client.gql(CHANGE_PASSWORD, { old: user.password, new: "another-pass-7", passcode: phone.nextPasscode() });
    expect(done).toEqual({ data: { changePassword: true } });
    expect((await rowOf(user.id)).passwordHash).not.toBe(before);
  });

  test("replacing an existing recovery code needs password and passcode; the old code keeps working after a refusal", async () => {
    const { user, client, phone, recoveryCode } = await memberWithTwoFactor();
    const hash = (await rowOf(user.id)).recoveryCodeHash;
    for (const variables of [{}, { password: user.password }, { password: "wrong-password-1", passcode: phone.passcodeAt(totpStep(new Date())) }]) {
      const answer = (await client.gql(RECOVERY, variables)) as Answer;
      expect(answer.data?.twoFactorRecoveryCode ?? null).toBeNull();
      expect(answer.errors?.[0]?.message).toBeTruthy();
    }
    expect((await rowOf(user.id)).recoveryCodeHash).toBe(hash);
    const issued = await client.gql<{ twoFactorRecoveryCode: string[] }>(RECOVERY, { password: user.password, passcode: phone.nextPasscode() });
    expect(issued.data?.twoFactorRecoveryCode[0]).toMatch(/^([A-Z2-7]{4}-){7}[A-Z2-7]{4}$/);
    expect(issued.data?.twoFactorRecoveryCode[0]).not.toBe(recoveryCode);
    expect((await rowOf(user.id)).recoveryCodeHash).not.toBe(hash);
  });
});

describe("password re-checks are bounded like sign-in", () => {
  test("a burst of guesses: five are heard, the rest wait, and the right password then waits too", async () => {
    const { user, client } = await member();
    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, index) => switchTwoFactor(client, { twoFactorAuthenticationActivated: true, password: `guess-number-${index}` })),
    );
    const codes = guesses.map((answer) => answer.errors?.[0]?.extensions?.code);
    expect(codes.filter((code) => code === "BAD_USER_INPUT").length).toBe(5);
    expect(codes.filter((code) => code === "TOO_MANY_REQUESTS").length).toBe(7);
    const right = await switchTwoFactor(client, { twoFactorAuthenticationActivated: true, password: user.password });
    expect(right.errors?.[0]?.extensions?.code).toBe("TOO_MANY_REQUESTS");
    expect(right.errors?.[0]?.message).toMatch(/^Too many failed password attempts\. Please try again in \d+ seconds\.$/);
    expect((await rowOf(user.id)).twoFactorAuthenticationActivated).toBe(false);
  });

  test("wrong passwords given to a re-check make signing in ask for proof of work, as failed sign-ins do", async () => {
    const { user, client } = await member();
    for (let attempt = 0; attempt < 3; attempt += 1) await switchTwoFactor(client, { twoFactorAuthenticationActivated: true, password: `wrong-${attempt}-pass` });
    const response = await anonymous(env.server).fetch("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: user.email, password: user.password, verifyToken: "" }) });
    expect(response.status).toBe(428);
  });
});
