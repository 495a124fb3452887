import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { organisations, sessions, userActivities, users } from "../../../db/schema/index.ts";
import { SSO_NO_ACCOUNT } from "../../../api/modules/auth/sso-sign-in.ts";
import { SSO_SIGN_IN_EXPIRED, SSO_SIGN_IN_FAILED } from "../../../api/modules/auth/sso-tokens.ts";
import { ACCOUNT_SUSPENDED } from "../../../api/modules/auth/login.ts";
import { ORGANISATION_UNAVAILABLE } from "../../../api/shared/messages.ts";
import { createOrganisation, createUser } from "../../factories/users.ts";
import { listenOpenIdProvider, SSO_CLIENT_ID, type LocalOpenIdProvider } from "../../helpers/openid-provider.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { clientWithCookie, cookieFrom } from "../../helpers/session.ts";
import { postSolving } from "../../helpers/proof-of-work.ts";
import { callbackParams, createSsoUser, finishSsoFlow, postSsoCallback, startSsoFlow } from "../../helpers/sso.ts";

let idp: LocalOpenIdProvider;
let server: TestServer;

beforeAll(async () => {
  idp = await listenOpenIdProvider();
  server = await startTestServer({ env: idp.env });
  await idp.start([`http://localhost:${server.port}/login-ms/callback`]);
});
afterAll(async () => {
  await server.stop();
  await idp.stop();
});

/** The whole round trip as a browser makes it: button, provider's pages as `subject`, callback page. */
async function signInAs(subject: string, edit: (url: URL) => void = () => {}) {
  const flow = await startSsoFlow(server);
  edit(flow.url);
  const callback = await idp.signInHeadless(flow.url.href, subject);
  return finishSsoFlow(server, flow.cookie, { ...callbackParams(callback), verifyToken: "" });
}

/** An SSO account, and a browser back from the provider as its owner, its callback not yet posted. */
async function backFromProvider(subject: string, email: string) {
  const user = await createSsoUser(server, email);
  idp.addAccount(subject, { email });
  const flow = await startSsoFlow(server);
  const callback = callbackParams(await idp.signInHeadless(flow.url.href, subject));
  return { user, flow, callback };
}

const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;
const sessionCount = async (userId: string) => (await server.db.select().from(sessions).where(eq(sessions.userId, userId))).length;

describe("POST /api/auth/login_sso/start", () => {
  test("sends the browser to the provider with PKCE (S256), state and nonce, keeping them in a Strict httpOnly cookie", async () => {
    const flow = await startSsoFlow(server);
    expect(flow.url.href).toStartWith(`${idp.issuer}/`);
    const params = flow.url.searchParams;
    expect(params.get("client_id")).toBe(SSO_CLIENT_ID);
    expect(params.get("response_type")).toBe("code");
    expect(params.get("redirect_uri")).toBe(`http://localhost:${server.port}/login-ms/callback`);
    expect(params.get("code_challenge_method")).toBe("S256");
    expect(params.get("code_challenge")!.length).toBeGreaterThanOrEqual(43);
    expect(params.get("state")!.length).toBeGreaterThanOrEqual(22);
    expect(params.get("nonce")!.length).toBeGreaterThanOrEqual(43);
    expect(params.get("scope")!.split(" ")).toContain("openid");
    const cookie = flow.response.headers.getSetCookie().join("\n");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    expect(cookie).toContain("Path=/api/auth;");
    // Two starts are two flows: nothing is reused.
    const again = await startSsoFlow(server);
    expect(again.url.searchParams.get("state")).not.toBe(params.get("state"));
    expect(again.url.searchParams.get("nonce")).not.toBe(params.get("nonce"));
  });

  test("is refused on an organisation's reporter host: staff sign in on the product domain", async () => {
    const response = await server.fetch("/api/auth/login_sso/start", { method: "POST", host: "demo.localhost", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(response.status).toBe(400);
    expect(response.headers.getSetCookie()).toHaveLength(0);
  });

  test("is refused when another website's page asks for it", async () => {
    const response = await server.fetch("/api/auth/login_sso/start", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
      body: "{}",
    });
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie()).toHaveLength(0);
  });
});

describe("POST /api/auth/login_sso", () => {
  test("an SSO account of an SSO organisation signs in: session cookie, viewer, audit entry, identity bound", async () => {
    const user = await createSsoUser(server, "alex.sso@example.test");
    idp.addAccount("alex-subject", { email: "Alex.SSO@example.test", email_verified: true, name: "Alex" });
    const response = await signInAs("alex-subject");
    expect(response.status).toBe(200);
    expect(((await response.json()) as { user: { email: string; isSSO: boolean } }).user).toMatchObject({ email: "alex.sso@example.test", isSSO: true });
    const token = cookieFrom(response, "lantern_session")!;
    expect(token.length).toBeGreaterThanOrEqual(43);
    // The flow's cookie is spent.
    expect(response.headers.getSetCookie().some((header) => header.startsWith("lantern_sso_flow=;"))).toBe(true);
    const viewer = await clientWithCookie(server, `lantern_session=${token}`).gql<{ viewer: { id: string; isSSO: boolean } }>(`{ viewer { id isSSO } }`);
    expect(viewer.data?.viewer).toEqual({ id: user.id, isSSO: true });
    const [row] = await server.db.select({ ssoIdentity: users.ssoIdentity }).from(users).where(eq(users.id, user.id));
    expect(row!.ssoIdentity).toBe(`${idp.issuer} alex-subject`);
    const audit = await server.db.select().from(userActivities).where(and(eq(userActivities.userId, user.id), eq(userActivities.action, "Login")));
    expect(audit.map((entry) => entry.metadata)).toEqual([{ method: "SSO", firstSignIn: true }]);
  });

  test("once bound, the account follows its Microsoft identity, not an address: a new holder of the address is refused", async () => {
    const user = await createSsoUser(server, "casey.sso@example.test");
    idp.addAccount("casey-subject", { email: "casey.sso@example.test" });
    expect((await signInAs("casey-subject")).status).toBe(200);
    // Casey's mailbox is renamed at the provider: the bound identity still opens Casey's account.
    idp.addAccount("casey-subject", { email: "casey.renamed@example.test" });
    const renamed = await signInAs("casey-subject");
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as { user: { id: string } }).user.id).toBe(user.id);
    // Someone else is later given the old address: it opens nothing.
    idp.addAccount("newcomer-subject", { email: "casey.sso@example.test" });
    const newcomer = await signInAs("newcomer-subject");
    expect(newcomer.status).toBe(401);
    expect(await errorOf(newcomer)).toBe(SSO_NO_ACCOUNT);
    expect(await sessionCount(user.id)).toBe(2);
  });

  test("refused with one message: organisation without SSO, an account with a password, an unknown address, a super admin", async () => {
    const noSso = await createSsoUser(server, "no-sso-org@example.test", { enableSSO: false });
    const ssoOrganisation = await createOrganisation(server.db, { enableSSO: true });
    const withPassword = await createUser(server.db, { role: "ORGANISATION_OWNER", organisationId: ssoOrganisation.id, email: "has-password@example.test" });
    const superAdmin = await createUser(server.db, { role: "SUPER_ADMIN", organisationId: null, email: "root-sso@example.test" });
    await server.db.update(users).set({ isSSO: true, passwordHash: null }).where(eq(users.id, superAdmin.id));
    const cases = [
      ["no-sso-subject", "no-sso-org@example.test"],
      ["password-subject", "has-password@example.test"],
      ["unknown-subject", "nobody-here@example.test"],
      ["root-subject", "root-sso@example.test"],
    ] as const;
    for (const [subject, email] of cases) {
      idp.addAccount(subject, { email });
      const response = await signInAs(subject);
      expect(response.status).toBe(401);
      expect(await errorOf(response)).toBe(SSO_NO_ACCOUNT);
      expect(cookieFrom(response, "lantern_session")).toBeNull();
    }
    for (const id of [noSso.id, withPassword.id, superAdmin.id]) expect(await sessionCount(id)).toBe(0);
    // Refused accounts are not bound to the identity that tried them.
    const bound = await server.db.select({ ssoIdentity: users.ssoIdentity }).from(users).where(eq(users.id, withPassword.id));
    expect(bound[0]!.ssoIdentity).toBeNull();
  });

  test("an address the provider says is not verified opens nothing", async () => {
    await createSsoUser(server, "unverified.sso@example.test");
    idp.addAccount("unverified-subject", { email: "unverified.sso@example.test", email_verified: false });
    const response = await signInAs("unverified-subject");
    expect(response.status).toBe(401);
    expect(await errorOf(response)).toBe(SSO_NO_ACCOUNT);
  });

  test("a suspended account and an archived organisation are told so, and get no session", async () => {
    const suspended = await createSsoUser(server, "suspended.sso@example.test");
    await server.db.update(users).set({ suspended: true }).where(eq(users.id, suspended.id));
    idp.addAccount("suspended-subject", { email: "suspended.sso@example.test" });
    const first = await signInAs("suspended-subject");
    expect(first.status).toBe(403);
    expect(await errorOf(first)).toBe(ACCOUNT_SUSPENDED);

    const archived = await createSsoUser(server, "archived.sso@example.test");
    await server.db.update(organisations).set({ archived: true }).where(eq(organisations.id, archived.organisationId));
    idp.addAccount("archived-subject", { email: "archived.sso@example.test" });
    const second = await signInAs("archived-subject");
    expect(second.status).toBe(403);
    expect(await errorOf(second)).toBe(ORGANISATION_UNAVAILABLE);
    expect(await sessionCount(suspended.id)).toBe(0);
    expect(await sessionCount(archived.id)).toBe(0);
  });

  test("a state from another window, a missing flow cookie or a spent one is refused before the provider is asked", async () => {
    const { user, flow, callback } = await backFromProvider("state-subject", "state.sso@example.test");

    const otherWindow = await finishSsoFlow(server, flow.cookie, { ...callback, state: "a-state-this-browser-never-made" });
    expect(otherWindow.status).toBe(401);
    expect(await errorOf(otherWindow)).toBe(SSO_SIGN_IN_EXPIRED);
    const noCookie = await finishSsoFlow(server, "", callback);
    expect(await errorOf(noCookie)).toBe(SSO_SIGN_IN_EXPIRED);
    const editedCookie = await finishSsoFlow(server, `${flow.cookie.slice(0, -4)}AAAA`, callback);
    expect(await errorOf(editedCookie)).toBe(SSO_SIGN_IN_EXPIRED);
    expect(await sessionCount(user.id)).toBe(0);
  });

  test("a used code is refused: replayed with a fresh flow it fails at the provider", async () => {
    const { user, flow, callback } = await backFromProvider("replay-subject", "replay.sso@example.test");
    expect((await finishSsoFlow(server, flow.cookie, callback)).status).toBe(200);

    const fresh = await startSsoFlow(server);
    const replay = await finishSsoFlow(server, fresh.cookie, { token: callback.token, state: fresh.url.searchParams.get("state") });
    expect(replay.status).toBe(401);
    expect(await errorOf(replay)).toBe(SSO_SIGN_IN_FAILED);
    expect(await sessionCount(user.id)).toBe(1);
  });

  test("a code made for another browser's flow fails its PKCE check", async () => {
    await createSsoUser(server, "pkce.sso@example.test");
    idp.addAccount("pkce-subject", { email: "pkce.sso@example.test" });
    const victim = await startSsoFlow(server);
    const attacker = await startSsoFlow(server);
    const attackersCode = callbackParams(await idp.signInHeadless(attacker.url.href, "pkce-subject")).token;
    const response = await finishSsoFlow(server, victim.cookie, { token: attackersCode, state: victim.url.searchParams.get("state") });
    expect(response.status).toBe(401);
    expect(await errorOf(response)).toBe(SSO_SIGN_IN_FAILED);
  });

  test("an ID token carrying a nonce this flow did not make is refused", async () => {
    const user = await createSsoUser(server, "nonce.sso@example.test");
    idp.addAccount("nonce-subject", { email: "nonce.sso@example.test" });
    const response = await signInAs("nonce-subject", (url) => url.searchParams.set("nonce", "a-nonce-from-some-other-sign-in-0123456789ab"));
    expect(response.status).toBe(401);
    expect(await errorOf(response)).toBe(SSO_SIGN_IN_FAILED);
    expect(await sessionCount(user.id)).toBe(0);
  });

  test("once failed callbacks pile up, each must carry solved proof of work; the flow waits for it, and paying signs in", async () => {
    const stray = await startSsoFlow(server);
    let answer = await postSsoCallback(server, stray.cookie, { token: "a-code", state: "not-this-flow's" });
    for (let tries = 0; answer.status !== 428 && tries < 10; tries++) answer = await postSsoCallback(server, stray.cookie, { token: "a-code", state: "not-this-flow's" });
    expect(answer.status).toBe(428);

    const { user, flow, callback } = await backFromProvider("paying-subject", "paying.sso@example.test");
    const unpaid = await postSsoCallback(server, flow.cookie, callback);
    expect(unpaid.status).toBe(428);
    expect(((await unpaid.json()) as { challenge: { action: string } }).challenge.action).toBe("login_submit");
    expect(unpaid.headers.getSetCookie()).toEqual([]);
    expect(await sessionCount(user.id)).toBe(0);
    const { response, solved } = await postSolving((body) => postSsoCallback(server, flow.cookie, body), callback);
    expect(solved.length).toBeGreaterThanOrEqual(1);
    expect(response.status).toBe(200);
    expect(await sessionCount(user.id)).toBe(1);
  });

  test("hostile input is a clear 400 that changes nothing", async () => {
    const flow = await startSsoFlow(server);
    const state = flow.url.searchParams.get("state");
    const bodies: unknown[] = [
      {},
      { token: "", state },
      { token: 12, state },
      { token: ["a"], state },
      { token: "a\u0000b", state },
      { token: "x".repeat(100_000), state },
      { token: "code", state: "s".repeat(10_000) },
      { token: "code", state, verifyToken: { nested: true } },
    ];
    for (const body of bodies) {
      const response = await finishSsoFlow(server, flow.cookie, body as Record<string, unknown>);
      expect(response.status).toBe(400);
      expect(cookieFrom(response, "lantern_session")).toBeNull();
    }
    const notJson = await server.fetch("/api/auth/login_sso", { method: "POST", headers: { "Content-Type": "application/json", Cookie: flow.cookie }, body: "{not json" });
    expect(notJson.status).toBe(400);
    const form = await server.fetch("/api/auth/login_sso", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "token=a&state=b" });
    expect(form.status).toBe(415);
  });

  test("an SSO account has no password to sign in with", async () => {
    const user = await createSsoUser(server, "no-password.sso@example.test");
    const response = await server.fetch("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: user.email, password: user.password }) });
    expect(response.status).toBe(401);
    expect(cookieFrom(response, "lantern_session")).toBeNull();
  });
});
