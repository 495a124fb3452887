import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { authTokens, userActivities, users } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { hashToken, newToken } from "../../../api/lib/tokens.ts";
import { EMAIL_CHANGED_SUBJECT, RESET_PASSWORD_SUBJECT, VERIFY_ACCOUNT_SUBJECT } from "../../../api/modules/account-access/mails.ts";
import { NOT_YOUR_EMAIL, RESEND_TOO_SOON } from "../../../api/modules/account-access/verification.ts";
import { VERIFICATION_CODE_INVALID, VERIFY_TOKEN_REQUIRED } from "../../../api/shared/messages.ts";
import { createUser } from "../../factories/users.ts";
import { demoOrganisationIds } from "../../helpers/demo.ts";
import { readOutbox, tokenAfter, waitForMail, type OutboxMail } from "../../helpers/outbox-mail.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";

/**
 * Account verification (spec §2 /admin/verify, §7 verify_account and resendEmailVerification;
 * decision 029): a changed address gets a code and the old address is told; the code is a mailed
 * secret (hashed, single-use, short-lived, voided by the next one).
 */
let server: TestServer;
let demoId: string;

const CHANGE_EMAIL = `mutation ($email: String!) { changeDetails(input: { email: $email }) { verified } }`;
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
/** A signed-in member who has just changed their address: the code has gone to the new one. */
async function memberWithNewAddress(): Promise<{ id: string; oldEmail: string; email: string; client: StaffClient; code: string; mails: OutboxMail[] }> {
  const user = await createUser(server.db, { role: "MEMBER", organisationId: demoId });
  const client = await loginAs(server, user.email, user.password);
  counter += 1;
  const email = `moved-${counter}-${Date.now().toString(36)}@example.test`;
  const seen = readOutbox(server.dataDir);
  expect(((await client.gql(CHANGE_EMAIL, { email })) as Answer<{ changeDetails: { verified: boolean } }>).data?.changeDetails.verified).toBe(false);
  const codeMail = await waitForMail(server.dataDir, { to: email, subject: VERIFY_ACCOUNT_SUBJECT, seen });
  const oldMail = await waitForMail(server.dataDir, { to: user.email, subject: EMAIL_CHANGED_SUBJECT, seen });
  return { id: user.id, oldEmail: user.email, email, client, code: tokenAfter(codeMail, "/admin/verify/"), mails: [codeMail, oldMail] };
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
  test("gets a code at the new address, and the old address is told without naming the new one", async () => {
    const { code, mails, email, oldEmail } = await memberWithNewAddress();
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mails[0]!.text).toContain(code);
    expect(mails[1]!.to).toBe(oldEmail);
    expect(mails[1]!.text).not.toContain(email);
    expect(mails[1]!.text).not.toContain(code);
  });

  test("voids reset links sent to the old address", async () => {
    const user = await createUser(server.db, { role: "MEMBER", organisationId: demoId });
    const client = await loginAs(server, user.email, user.password);
    const seen = readOutbox(server.dataDir);
    await anonymous(server).gql(`mutation ($email: String!) { forgotPassword(email: $email) }`, { email: user.email });
    const link = tokenAfter(await waitForMail(server.dataDir, { to: user.email, subject: RESET_PASSWORD_SUBJECT, seen }), "/admin/reset-password/");
    await client.gql(CHANGE_EMAIL, { email: `elsewhere-${Date.now().toString(36)}@example.test` });
    const check = (await anonymous(server).gql(`query ($token: String!) { verifyResetToken(token: $token) }`, { token: link })) as Answer<{ verifyResetToken: boolean }>;
    expect(check.data?.verifyResetToken).toBe(false);
  });
});

describe("POST /api/auth/verify_account", () => {
  test("the mailed code verifies the account, without a session, once; the audit log records it", async () => {
    const { id, code, client } = await memberWithNewAddress();
    expect(await verifyAccount({ token: code })).toMatchObject({ status: 200, body: { verified: true } });
    expect(await isVerified(id)).toBe(true);
    expect(((await client.gql(VERIFIED)) as Answer<{ viewer: { verified: boolean } }>).data?.viewer.verified).toBe(true);
    const again = await verifyAccount({ token: code });
    expect(again).toMatchObject({ status: 400, body: { error: VERIFICATION_CODE_INVALID } });
    const audit = await server.db.select().from(userActivities).where(and(eq(userActivities.objectId, id), eq(userActivities.action, "VerifyAccount")));
    expect(audit).toHaveLength(1);
  });

  test("a pasted code with spaces around it still works", async () => {
    const { id, code } = await memberWithNewAddress();
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
    const { id, email, client, code } = await memberWithNewAddress();
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
    const { id, email, client } = await memberWithNewAddress();
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
