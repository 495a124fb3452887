import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { authTokens, userActivities, users } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { hashToken, newToken } from "../../../api/lib/tokens.ts";
import { CONFIRM_EMAIL_CHANGE_SUBJECT, EMAIL_CHANGE_REQUESTED_SUBJECT, RESET_PASSWORD_SUBJECT, VERIFY_ACCOUNT_SUBJECT } from "../../../api/modules/account-access/mails.ts";
import { NOT_YOUR_EMAIL, RESEND_TOO_SOON } from "../../../api/modules/account-access/verification.ts";
import { VERIFICATION_CODE_INVALID, VERIFY_TOKEN_REQUIRED } from "../../../api/shared/messages.ts";
import { createUser } from "../../factories/users.ts";
import { demoOrganisationIds } from "../../helpers/demo.ts";
import { readOutbox, tokenAfter, waitForMail, type OutboxMail } from "../../helpers/outbox-mail.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";

/**
 * Account verification (spec §2 /admin/verify, §7 verify_account and resendEmailVerification;
 * decision 029): an unverified account gets a code; the code is a mailed secret (hashed, single-use,
 * short-lived, voided by the next one). A changed address waits for the link mailed to it and the
 * old address is told (decision 061; tests/api/profile/email-change.test.ts has the rest).
 */
let server: TestServer;
let demoId: string;

const CHANGE_EMAIL = `mutation ($email: String!, $password: String) { changeDetails(input: { email: $email, password: $password }) { verified } }`;
const RESEND = `mutation ($email: String!) { resendEmailVerification(email: $email) }`;
const VERIFIED = `{ viewer { verified } }`;

type Answer<T> = { data?: T | null; errors?: { message: string; extensions?: { code?: string } }[] };

async function verifyAccount(body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await server.fetch("/api/auth/verify_account", { method: "POST", headers: { "Content-Type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
const isVerified = async (id: string) => (await server.db.select({ verified: users.verified }).from(users).where(eq(users.id, id)))[0]!.verified;
const resend = (client: StaffClient, email: string) => client.gql(RESEND, { email }) as Promise<Answer<{ resendEmailVerification: boolean }>>;

let counter = 0;
/** A signed-in member whose account is unverified (as a created account is) and who has just been mailed a code. */
async function unverifiedMemberWithCode(): Promise<{ id: string; email: string; client: StaffClient; code: string }> {
  counter += 1;
  const email = `unverified-${counter}-${Date.now().toString(36)}@example.test`;
  const user = await createUser(server.db, { role: "MEMBER", organisationId: demoId, email });
  await server.db.update(users).set({ verified: false }).where(eq(users.id, user.id));
  const client = await loginAs(server, user.email, user.password);
  const seen = readOutbox(server.dataDir);
  expect((await resend(client, email)).data?.resendEmailVerification).toBe(true);
  const codeMail = await waitForMail(server.dataDir, { to: email, subject: VERIFY_ACCOUNT_SUBJECT, seen });
  return { id: user.id, email, client, code: tokenAfter(codeMail, "/admin/verify/") };
}

/** The latest code was sent long enough ago that another may be asked for. */
const ageCodes = (userId: string) => server.db.update(authTokens).set({ createdAt: new Date(Date.now() - 120_000) }).where(eq(authTokens.userId, userId));

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  ({ demoId } = await demoOrganisationIds(server));
});
afterAll(() => server.stop());

describe("a changed email address", () => {
  test("gets a link at the new address, and the old address is told without naming the new one", async () => {
    const user = await createUser(server.db, { role: "MEMBER", organisationId: demoId });
    const client = await loginAs(server, user.email, user.password);
    const email = `moved-${Date.now().toString(36)}@example.test`;
    const seen = readOutbox(server.dataDir);
    expect(((await client.gql(CHANGE_EMAIL, { email, password: user.password })) as Answer<{ changeDetails: { verified: boolean } }>).data?.changeDetails.verified).toBe(true);
    const linkMail = await waitForMail(server.dataDir, { to: email, subject: CONFIRM_EMAIL_CHANGE_SUBJECT, seen });
    const oldMail = await waitForMail(server.dataDir, { to: user.email, subject: EMAIL_CHANGE_REQUESTED_SUBJECT, seen });
    const code = tokenAfter(linkMail, "/admin/confirm-email/");
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(oldMail.text).not.toContain(email);
    expect(oldMail.text).not.toContain(code);
  });

  test("voids reset links sent to the old address once the new one is confirmed, not before", async () => {
    const user = await createUser(server.db, { role: "MEMBER", organisationId: demoId });
    const client = await loginAs(server, user.email, user.password);
    const seen = readOutbox(server.dataDir);
    await anonymous(server).gql(`mutation ($email: String!) { forgotPassword(email: $email) }`, { email: user.email });
    const link = tokenAfter(await waitForMail(server.dataDir, { to: user.email, subject: RESET_PASSWORD_SUBJECT, seen }), "/admin/reset-password/");
    const email = `elsewhere-${Date.now().toString(36)}@example.test`;
    await client.gql(CHANGE_EMAIL, { email, password: user.password });
    const resetWorks = async () => ((await anonymous(server).gql(`query ($token: String!) { verifyResetToken(token: $token) }`, { token: link })) as Answer<{ verifyResetToken: boolean }>).data?.verifyResetToken;
    expect(await resetWorks()).toBe(true);
    const confirm = tokenAfter(await waitForMail(server.dataDir, { to: email, subject: CONFIRM_EMAIL_CHANGE_SUBJECT, seen }), "/admin/confirm-email/");
    expect((await anonymous(server).gql(`mutation ($token: String!) { confirmEmailChange(token: $token) }`, { token: confirm })).errors).toBeUndefined();
    expect(await resetWorks()).toBe(false);
  });
});

describe("POST /api/auth/verify_account", () => {
  test("the mailed code verifies the account, without a session, once; the audit log records it", async () => {
    const { id, code, client } = await unverifiedMemberWithCode();
    expect(await verifyAccount({ token: code })).toMatchObject({ status: 200, body: { verified: true } });
    expect(await isVerified(id)).toBe(true);
    expect(((await client.gql(VERIFIED)) as Answer<{ viewer: { verified: boolean } }>).data?.viewer.verified).toBe(true);
    const again = await verifyAccount({ token: code });
    expect(again).toMatchObject({ status: 400, body: { error: VERIFICATION_CODE_INVALID } });
    const audit = await server.db.select().from(userActivities).where(and(eq(userActivities.objectId, id), eq(userActivities.action, "VerifyAccount")));
    expect(audit).toHaveLength(1);
  });

  test("a pasted code with spaces around it still works", async () => {
    const { id, code } = await unverifiedMemberWithCode();
    expect((await verifyAccount({ token: `  ${code}\n` })).status).toBe(200);
    expect(await isVerified(id)).toBe(true);
  });

  test("no code: 'Verify Token is required'", async () => {
    for (const body of [{}, { token: "" }, { token: "   " }]) expect(await verifyAccount(body)).toMatchObject({ status: 400, body: { error: VERIFY_TOKEN_REQUIRED } });
  });

  test("expired, spent, foreign-purpose, unknown and malformed codes are refused and verify nothing", async () => {
    const user = await createUser(server.db, { role: "MEMBER", organisationId: demoId });
    await server.db.update(users).set({ verified: false }).where(eq(users.id, user.id));
    const insert = async (purpose: "ResetPassword" | "VerifyEmail" | "MagicLogin", expiresIn: number, usedAt: Date | null = null) => {
      const token = newToken();
      await server.db.insert(authTokens).values({ tokenHash: hashToken(token), userId: user.id, purpose, expiresAt: new Date(Date.now() + expiresIn), usedAt });
      return token;
    };
    const codes = [await insert("VerifyEmail", -1000), await insert("VerifyEmail", 3_600_000, new Date()), await insert("ResetPassword", 3_600_000), await insert("MagicLogin", 3_600_000), newToken(), "abc", "x".repeat(100)];
    for (const token of codes) expect(await verifyAccount({ token })).toMatchObject({ status: 400, body: { error: VERIFICATION_CODE_INVALID } });
    for (const body of [{ token: 42 }, { token: ["a"] }, { token: "a".repeat(1_000_000) }, { token: "nul\u0000" }, "[1]", "not json", "null"]) {
      const answer = await verifyAccount(body);
      expect(answer.status).toBe(400);
      expect(typeof answer.body.error).toBe("string");
    }
    expect(await isVerified(user.id)).toBe(false);
  });
});

describe("resendEmailVerification", () => {
  test("mails a new code to the caller's own address and voids the one before", async () => {
    const { id, email, client, code } = await unverifiedMemberWithCode();
    await ageCodes(id);
    const seen = readOutbox(server.dataDir);
    expect((await resend(client, email)).data?.resendEmailVerification).toBe(true);
    const fresh = tokenAfter(await waitForMail(server.dataDir, { to: email, subject: VERIFY_ACCOUNT_SUBJECT, seen }), "/admin/verify/");
    expect(fresh).not.toBe(code);
    expect((await verifyAccount({ token: code })).status).toBe(400);
    expect((await verifyAccount({ token: fresh })).status).toBe(200);
    expect(await isVerified(id)).toBe(true);
  });

  test("refused without a session, for anyone else's address, and within a minute of the last code", async () => {
    const { id, email, client } = await unverifiedMemberWithCode();
    const signedOut = await resend(anonymous(server), email);
    expect(signedOut.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    const other = await resend(client, "owner@demo.test");
    expect(other.errors?.[0]).toMatchObject({ message: NOT_YOUR_EMAIL, extensions: { code: "BAD_USER_INPUT" } });
    const tooSoon = await resend(client, email);
    expect(tooSoon.errors?.[0]).toMatchObject({ message: RESEND_TOO_SOON, extensions: { code: "TOO_MANY_REQUESTS" } });
    for (const bad of ["", "not-an-email", "nul\u0000@x.test", "a".repeat(1_000_000)]) expect((await resend(client, bad)).errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(await isVerified(id)).toBe(false);
  });

  test("a verified account is sent nothing", async () => {
    const user = await createUser(server.db, { role: "MEMBER", organisationId: demoId });
    const client = await loginAs(server, user.email, user.password);
    expect((await resend(client, user.email.toUpperCase())).data?.resendEmailVerification).toBe(true);
    expect(await server.db.select().from(authTokens).where(eq(authTokens.userId, user.id))).toEqual([]);
  });
});
