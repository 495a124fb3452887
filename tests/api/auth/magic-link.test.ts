import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { authTokens, sessions, userActivities, users } from "../../../db/schema/index.ts";
import { hashToken } from "../../../api/lib/tokens.ts";
import { createOrganisation, createUser } from "../../factories/users.ts";
import { linkIn, mailsTo } from "../../helpers/mail-links.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { clientWithCookie, cookieFrom } from "../../helpers/session.ts";

const LINK_INVALID = "Login link has expired or is invalid, please try again.";

let server: TestServer;
let emailAuthOrganisationId: string;
let plainOrganisationId: string;

beforeAll(async () => {
  server = await startTestServer();
  emailAuthOrganisationId = (await createOrganisation(server.db, { enableEmailAuth2FA: true })).id;
  plainOrganisationId = (await createOrganisation(server.db)).id;
});
afterAll(() => server.stop());

const post = (path: string, body: unknown) =>
  server.fetch(`/api/auth/${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });

async function memberOfEmailAuthOrganisation() {
  return createUser(server.db, { role: "MEMBER", organisationId: emailAuthOrganisationId });
}

/** Signs in with the password and returns the link the mail brought. */
async function requestLink(user: { email: string; password: string }): Promise<URL> {
  const before = mailsTo(server.dataDir, user.email).length;
  const response = await post("login", { email: user.email, password: user.password, verifyToken: "" });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ emailVerifyRequired: true });
  expect(response.headers.getSetCookie()).toHaveLength(0);
  const mails = mailsTo(server.dataDir, user.email);
  expect(mails).toHaveLength(before + 1);
  return linkIn(mails.at(-1)!, "/admin/login-verify");
}

const verify = (link: URL) => post("login_verify", { email: link.searchParams.get("email"), token: link.searchParams.get("token") });

async function expectRefused(response: Response) {
  expect(response.status).toBe(401);
  expect(await response.json()).toMatchObject({ error: LINK_INVALID });
  expect(response.headers.getSetCookie()).toHaveLength(0);
}

describe("magic-link sign-in (enableEmailAuth2FA)", () => {
  test("the right password opens no session: it mails a link that signs in once", async () => {
    const user = await memberOfEmailAuthOrganisation();
    const link = await requestLink(user);
    expect(link.hostname).toBe("app.localhost");
    expect(link.searchParams.get("email")).toBe(user.email);
    const token = link.searchParams.get("token")!;
    expect(Buffer.from(token, "base64url").length).toBeGreaterThanOrEqual(16);
    // Only the hash is kept.
    const [stored] = await server.db.select().from(authTokens).where(and(eq(authTokens.userId, user.id), eq(authTokens.purpose, "MagicLogin")));
    expect(stored!.tokenHash).toBe(hashToken(token));
    expect(await server.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);

    const response = await verify(link);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: { email: string; pass2FA: boolean } };
    expect(body.user).toMatchObject({ email: user.email, pass2FA: true });
    const client = clientWithCookie(server, `lantern_session=${cookieFrom(response, "lantern_session")}`);
    const viewer = await client.gql<{ viewer: { email: string } }>("{ viewer { email } }");
    expect(viewer.data?.viewer.email).toBe(user.email);
    const actions = (await server.db.select().from(userActivities).where(eq(userActivities.userId, user.id))).map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(["LoginLinkSent", "Login"]));

    // Used: the same link again is refused.
    await expectRefused(await verify(link));
  });

  test("an expired link is refused", async () => {
    const user = await memberOfEmailAuthOrganisation();
    const link = await requestLink(user);
    await server.db.update(authTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(authTokens.userId, user.id));
    await expectRefused(await verify(link));
  });

  test("a new link voids the one before it", async () => {
    const user = await memberOfEmailAuthOrganisation();
    const first = await requestLink(user);
    const second = await requestLink(user);
    await expectRefused(await verify(first));
    expect((await verify(second)).status).toBe(200);
  });

  test("someone else's link, an unknown email and a made-up token get the same answer", async () => {
    const owner = await memberOfEmailAuthOrganisation();
    const other = await memberOfEmailAuthOrganisation();
    const link = await requestLink(owner);
    const token = link.searchParams.get("token")!;
    const answers = [
      await post("login_verify", { email: other.email, token }),
      await post("login_verify", { email: "nobody@example.test", token }),
      await post("login_verify", { email: owner.email, token: `${token.slice(0, -2)}AA` }),
    ];
    const bodies = [];
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      bodies.push(await answer.text());
    }
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!).error).toBe(LINK_INVALID);
    // The rightful link still works: the wrong tries did not spend it.
    expect((await verify(link)).status).toBe(200);
  });

  test("an account suspended after the link was sent cannot use it", async () => {
    const user = await memberOfEmailAuthOrganisation();
    const link = await requestLink(user);
    await server.db.update(users).set({ suspended: true }).where(eq(users.id, user.id));
    await expectRefused(await verify(link));
  });

  test("a wrong password mails nothing, and an organisation without the setting signs in directly", async () => {
    const user = await memberOfEmailAuthOrganisation();
    const wrong = await post("login", { email: user.email, password: "not-the-password-1", verifyToken: "" });
    expect(wrong.status).toBe(401);
    expect(mailsTo(server.dataDir, user.email)).toHaveLength(0);

    const plain = await createUser(server.db, { role: "MEMBER", organisationId: plainOrganisationId });
    const direct = await post("login", { email: plain.email, password: plain.password, verifyToken: "" });
    expect(direct.status).toBe(200);
    expect(cookieFrom(direct, "lantern_session")).toBeTruthy();
    expect(mailsTo(server.dataDir, plain.email)).toHaveLength(0);
  });

  test("malformed requests are a clear refusal, never a 500, and change nothing", async () => {
    const user = await memberOfEmailAuthOrganisation();
    const link = await requestLink(user);
    const token = link.searchParams.get("token")!;
    const bodies: unknown[] = [
      {},
      { email: user.email },
      { token },
      { email: 42, token },
      { email: user.email, token: ["a"] },
      { email: user.email, token: `${token}\u0000` },
      { email: user.email, token: "x".repeat(100_000) },
      "[1,2]",
      "{not json",
    ];
    for (const body of bodies) {
      const response = await post("login_verify", body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error.length).toBeGreaterThan(0);
    }
    expect((await verify(link)).status).toBe(200);
  });
});
