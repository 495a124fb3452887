import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { authTokens, sessions, userActivities, users } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { hashToken, newToken } from "../../../api/lib/tokens.ts";
import { userDisconnectTopic } from "../../../api/modules/auth/events.ts";
import { runHousekeeping } from "../../../api/modules/abuse/housekeeping.ts";
import { FORGOT_PASSWORD_ANSWER, INVALID_RESET_LINK } from "../../../api/shared/messages.ts";
import { RESET_PASSWORD_SUBJECT } from "../../../api/modules/account-access/mails.ts";
import { createUser } from "../../factories/users.ts";
import { demoOrganisationIds } from "../../helpers/demo.ts";
import { untilListening } from "../../helpers/live-topics.ts";
import { readOutbox, tokenAfter, waitForMail } from "../../helpers/outbox-mail.ts";
import { solveChallenge, type ChallengeBody } from "../../helpers/proof-of-work.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";
import { collect, wsClient } from "../../helpers/websocket.ts";

/**
 * Forgot / reset password (spec §2; decision 029). The answer to forgotPassword never tells
 * whether an account has the address; the link is a mailed secret (hashed, single-use, short-lived,
 * voided by the next), and a reset ends every session of the account.
 */
let server: TestServer;
let demoId: string;

const FORGOT = `mutation ($email: String!, $verifyToken: String) { forgotPassword(email: $email, verifyToken: $verifyToken) }`;
const VERIFY = `query ($token: String!) { verifyResetToken(token: $token) }`;
const RESET = `mutation ($token: String!, $newPassword: String!) { resetPassword(token: $token, newPassword: $newPassword) }`;

type GqlError = { message: string; extensions?: { code?: string; challenge?: ChallengeBody; fields?: { field: string; message: string }[] } };
type Answer<T> = { data?: T | null; errors?: GqlError[] };

const guest = () => anonymous(server);
/** The whole HTTP answer, for comparing what an observer sees. */
async function forgotRaw(email: unknown, verifyToken?: string) {
  const response = await server.fetch("/api/gql/query", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query: FORGOT, variables: { email, verifyToken } }) });
  return { status: response.status, body: (await response.json()) as Answer<{ forgotPassword: boolean }> };
}
const verify = async (token: string) => ((await guest().gql(VERIFY, { token })) as Answer<{ verifyResetToken: boolean }>).data?.verifyResetToken;
const reset = (token: string, newPassword: string) => guest().gql(RESET, { token, newPassword }) as Promise<Answer<{ resetPassword: boolean }>>;
const loginStatus = async (email: string, password: string) =>
  (await server.fetch("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email, password }) })).status;
const sessionCount = async (id: string) => (await server.db.select().from(sessions).where(eq(sessions.userId, id))).length;
const member = (overrides: { suspended?: boolean } = {}) => createUser(server.db, { role: "MEMBER", organisationId: demoId, password: "first-pass-1", ...overrides });

/** Asks for a link the way the page does and returns the token from the mail. */
async function mailedToken(email: string): Promise<string> {
  const seen = readOutbox(server.dataDir);
  expect((await forgotRaw(email)).body.data?.forgotPassword).toBe(true);
  return tokenAfter(await waitForMail(server.dataDir, { to: email, subject: RESET_PASSWORD_SUBJECT, seen }), "/admin/reset-password/");
}

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  ({ demoId } = await demoOrganisationIds(server));
});
afterAll(() => server.stop());

describe("forgotPassword", () => {
  test("mails a working link to an account's address, and records it", async () => {
    const user = await member();
    const token = await mailedToken(user.email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await verify(token)).toBe(true);
    // Only the hash is kept.
    const [row] = await server.db.select().from(authTokens).where(eq(authTokens.userId, user.id));
    expect(row).toMatchObject({ tokenHash: hashToken(token), purpose: "ResetPassword", usedAt: null });
    expect(JSON.stringify(row)).not.toContain(token);
    const audit = await server.db.select().from(userActivities).where(and(eq(userActivities.objectId, user.id), eq(userActivities.action, "ForgotPassword")));
    expect(audit).toHaveLength(1);
  });

  test("answers exactly the same for an unknown, single-sign-on or suspended address, and mails none of them", async () => {
    const known = await member();
    const suspended = await member({ suspended: true });
    const sso = await member();
    await server.db.update(users).set({ isSSO: true, passwordHash: null }).where(eq(users.id, sso.id));
    const seen = readOutbox(server.dataDir);
    const answers = [];
    for (const email of ["nobody-here@example.test", suspended.email, sso.email, known.email]) answers.push(await forgotRaw(email));
    for (const answer of answers) expect(answer).toEqual({ status: 200, body: { data: { forgotPassword: true } } });
    // The known address's mail was the last to be asked for; once it is here, none other is coming.
    await waitForMail(server.dataDir, { to: known.email, subject: RESET_PASSWORD_SUBJECT, seen });
    const sent = readOutbox(server.dataDir).filter((mail) => !seen.some((old) => old.file === mail.file));
    expect(sent.map((mail) => mail.to)).toEqual([known.email]);
  });

  test("the console's message is the spec's one sentence", () => {
    expect(FORGOT_PASSWORD_ANSWER).toBe("If an account is associated with this email address, you’ll receive a password reset link shortly.");
  });

  test("a new link voids the one before", async () => {
    const user = await member();
    const first = await mailedToken(user.email);
    const second = await mailedToken(user.email);
    expect(await verify(first)).toBe(false);
    expect(await verify(second)).toBe(true);
    expect((await reset(first, "third-pass-3")).errors?.[0]?.message).toBe(INVALID_RESET_LINK);
  });

  test("refuses what no one can type, changing nothing and never failing with a 500", async () => {
    const cases: [unknown, string][] = [
      ["", "Required"],
      ["   ", "Required"],
      ["not-an-email", "Invalid email address"],
      [`${"a".repeat(1_000_000)}@example.test`, "Invalid email address"],
      ["nul\u0000@example.test", ""],
    ];
    for (const [email, message] of cases) {
      const { status, body } = await forgotRaw(email);
      expect(status).toBeLessThan(500);
      expect(body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
      if (message) expect(body.errors?.[0]?.message).toBe(message);
    }
    for (const email of [42, ["a@b.test"], { email: "a@b.test" }, null]) {
      const { status, body } = await forgotRaw(email);
      expect(status).toBeLessThan(500);
      expect(body.errors?.length).toBeGreaterThan(0);
    }
  });
});

describe("forgotPassword's bot check (forgot_password_submit)", () => {
  async function challengeFor(email: string): Promise<ChallengeBody> {
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await forgotRaw(email)).body.data?.forgotPassword).toBe(true);
    const asked = await forgotRaw(email);
    expect(asked.body.errors?.[0]?.extensions?.code).toBe("CHALLENGE_REQUIRED");
    return asked.body.errors![0]!.extensions!.challenge!;
  }

  test("an address asked for again and again costs proof of work, known or not, and the same work", async () => {
    const user = await member();
    const known = await challengeFor(user.email);
    const unknown = await challengeFor("no-such-account@example.test");
    expect(known.action).toBe("forgot_password_submit");
    expect(unknown.action).toBe("forgot_password_submit");
    expect(known.difficulty).toBe(unknown.difficulty);
    // Paying is always enough to be heard.
    const seen = readOutbox(server.dataDir);
    expect((await forgotRaw(user.email, solveChallenge(known))).body.data?.forgotPassword).toBe(true);
    await waitForMail(server.dataDir, { to: user.email, subject: RESET_PASSWORD_SUBJECT, seen });
  });

  test("a solution counts once, for its own action and address only", async () => {
    const user = await member();
    const challenge = await challengeFor(user.email);
    const solution = solveChallenge(challenge);
    expect((await forgotRaw(user.email, solution)).body.data?.forgotPassword).toBe(true);
    expect((await forgotRaw(user.email, solution)).body.errors?.[0]?.extensions?.code).toBe("CHALLENGE_REQUIRED");
    const other = await challengeFor("someone-else@example.test");
    expect((await forgotRaw(user.email, solveChallenge(other))).body.errors?.[0]?.extensions?.code).toBe("CHALLENGE_REQUIRED");
    // A sign-in's solution is not a reset request's.
    const login = await server.fetch("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: user.email, password: "x", verifyToken: solution }) });
    expect(login.status).toBe(401);
  });

  test("reset requests do not make signing in cost work", async () => {
    const user = await member();
    await challengeFor(user.email);
    expect(await loginStatus(user.email, "first-pass-1")).toBe(200);
  });
});

describe("verifyResetToken and resetPassword", () => {
  test("a reset sets the password, spends the link and ends every session, telling open consoles at once", async () => {
    const user = await member();
    const console1 = await loginAs(server, user.email, "first-pass-1");
    const console2 = await loginAs(server, user.email, "first-pass-1");
    const socket = wsClient(server, console2.cookie);
    const disconnect = collect<{ data: { organisationUserDisconnect: boolean } }>(socket, "subscription { organisationUserDisconnect }", 1);
    await untilListening(server, userDisconnectTopic(user.id));
    const token = await mailedToken(user.email);

    expect((await reset(token, "second-pass-2")).data?.resetPassword).toBe(true);
    await disconnect.done;
    expect(disconnect.results[0]?.data.organisationUserDisconnect).toBe(true);
    disconnect.dispose();
    await socket.dispose();

    expect(await sessionCount(user.id)).toBe(0);
    for (const client of [console1, console2]) expect(await (await client.fetch("/api/auth/check")).text()).toBe("unauthorised");
    expect(await loginStatus(user.email, "first-pass-1")).toBe(401);
    expect(await loginStatus(user.email, "second-pass-2")).toBe(200);
    // Spent: neither the check nor a second reset accepts it.
    expect(await verify(token)).toBe(false);
    expect((await reset(token, "third-pass-3")).errors?.[0]).toMatchObject({ message: INVALID_RESET_LINK, extensions: { code: "BAD_USER_INPUT" } });
    expect(await loginStatus(user.email, "second-pass-2")).toBe(200);
    const audit = await server.db.select().from(userActivities).where(and(eq(userActivities.objectId, user.id), eq(userActivities.action, "ResetPassword")));
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0])).not.toContain("pass-");
  });

  test("two resets racing with one link: exactly one wins", async () => {
    const user = await member();
    const token = await mailedToken(user.email);
    const answers = await Promise.all([reset(token, "racing-pass-1"), reset(token, "racing-pass-2")]);
    expect(answers.filter((answer) => answer.data?.resetPassword === true)).toHaveLength(1);
    expect(answers.filter((answer) => answer.errors?.[0]?.message === INVALID_RESET_LINK)).toHaveLength(1);
  });

  test("expired, spent, foreign-purpose, unknown and malformed tokens are refused and change nothing", async () => {
    const user = await member();
    const insert = async (purpose: "ResetPassword" | "VerifyEmail" | "MagicLogin", expiresIn: number, usedAt: Date | null = null) => {
      const token = newToken();
      await server.db.insert(authTokens).values({ tokenHash: hashToken(token), userId: user.id, purpose, expiresAt: new Date(Date.now() + expiresIn), usedAt });
      return token;
    };
    const expired = await insert("ResetPassword", -1000);
    const spent = await insert("ResetPassword", 3_600_000, new Date());
    const verification = await insert("VerifyEmail", 3_600_000);
    const magic = await insert("MagicLogin", 3_600_000);
    const bad = [expired, spent, verification, magic, newToken(), "short", `${newToken()}x`, "%2e%2e%2f", "a".repeat(1_000_000), "nul\u0000"];
    for (const token of bad) {
      const check = (await guest().gql(VERIFY, { token })) as Answer<{ verifyResetToken: boolean }>;
      if (check.errors) expect(check.errors[0]?.extensions?.code).toBe("BAD_USER_INPUT");
      else expect(check.data?.verifyResetToken).toBe(false);
      const answer = await reset(token, "second-pass-2");
      expect(answer.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    }
    expect(await loginStatus(user.email, "first-pass-1")).toBe(200);
  });

  test("a link for a suspended or single-sign-on account does not work", async () => {
    const suspended = await member();
    const suspendedToken = await mailedToken(suspended.email);
    await server.db.update(users).set({ suspended: true }).where(eq(users.id, suspended.id));
    const sso = await member();
    const ssoToken = await mailedToken(sso.email);
    await server.db.update(users).set({ isSSO: true, passwordHash: null }).where(eq(users.id, sso.id));
    for (const token of [suspendedToken, ssoToken]) {
      expect(await verify(token)).toBe(false);
      expect((await reset(token, "second-pass-2")).errors?.[0]?.message).toBe(INVALID_RESET_LINK);
    }
  });

  test("the new password must follow the rule; a refused password leaves the link usable", async () => {
    const user = await member();
    const token = await mailedToken(user.email);
    const cases: [string, string][] = [
      ["", "Required"],
      ["short-1", "Password must contain at least 8 characters"],
      ["onlyletters", "Password must contain at least 1 letter and number"],
      [`a1${"x".repeat(1000)}`, "Must be at most 1000 characters"],
    ];
    for (const [newPassword, message] of cases) {
      const answer = await reset(token, newPassword);
      expect(answer.errors?.[0]).toMatchObject({ message, extensions: { code: "BAD_USER_INPUT" } });
    }
    expect(await verify(token)).toBe(true);
    expect((await reset(token, "second-pass-2")).data?.resetPassword).toBe(true);
  });

  test("a reset voids other mailed sign-in links of the account, and a signed-in stranger gains nothing", async () => {
    const user = await member();
    const stranger: StaffClient = await loginAs(server, "member@demo.test", DEMO_PASSWORD);
    const token = await mailedToken(user.email);
    const magic = newToken();
    await server.db.insert(authTokens).values({ tokenHash: hashToken(magic), userId: user.id, purpose: "MagicLogin", expiresAt: new Date(Date.now() + 600_000) });
    // The link is the credential: whoever holds it may use it, signed in or not, and it changes only its own account.
    expect(((await stranger.gql(RESET, { token, newPassword: "second-pass-2" })) as Answer<{ resetPassword: boolean }>).data?.resetPassword).toBe(true);
    expect(await server.db.select().from(authTokens).where(eq(authTokens.userId, user.id))).toEqual([]);
    expect(await loginStatus("member@demo.test", DEMO_PASSWORD)).toBe(200);
  });
});

describe("housekeeping", () => {
  test("removes expired links and keeps live ones", async () => {
    const user = await member();
    const live = await mailedToken(user.email);
    const expired = newToken();
    await server.db.insert(authTokens).values({ tokenHash: hashToken(expired), userId: user.id, purpose: "VerifyEmail", expiresAt: new Date(Date.now() - 1000) });
    await runHousekeeping(server.lantern.services);
    const left = await server.db.select({ tokenHash: authTokens.tokenHash }).from(authTokens).where(eq(authTokens.userId, user.id));
    expect(left).toEqual([{ tokenHash: hashToken(live) }]);
  });
});
