import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { sessions, users } from "../../../db/schema/index.ts";
import { clientWithCookie, cookieFrom } from "../../helpers/session.ts";
import { callbackParams, createSsoUser, finishSsoFlow, serverWithOpenIdProvider, startSsoFlow } from "../../helpers/sso.ts";

// A single sign-on account has no password: it proves itself again by a provider sign-in made
// moments before a sensitive change, which the console asks for with prompt=login (decision 061).

const env = serverWithOpenIdProvider();

const TURN_ON = `mutation { changeDetails(input: { twoFactorAuthenticationActivated: true }) { twoFactorAuthenticationActivated } }`;

async function ssoSession(subject: string, email: string) {
  const flow = await startSsoFlow(env.server);
  const callback = callbackParams(await env.idp.signInHeadless(flow.url.href, subject));
  const response = await finishSsoFlow(env.server, flow.cookie, { ...callback, verifyToken: "" });
  expect(response.status).toBe(200);
  return clientWithCookie(env.server, `lantern_session=${cookieFrom(response, "lantern_session")}`);
}

describe("single sign-on accounts prove themselves with their provider", () => {
  test("the console's re-authentication asks the provider to ask again; an ordinary sign-in does not", async () => {
    const again = await env.server.fetch("/api/auth/login_sso/start", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ reauthenticate: true }) });
    expect(new URL(((await again.json()) as { url: string }).url).searchParams.get("prompt")).toBe("login");
    expect((await startSsoFlow(env.server)).url.searchParams.get("prompt")).toBeNull();
  });

  test("a session from a sign-in more than five minutes ago is told to sign in again, and nothing changes", async () => {
    const email = `sso-old-${Date.now().toString(36)}@example.test`;
    const user = await createSsoUser(env.server, email);
    env.idp.addAccount("sso-old", { email });
    const client = await ssoSession("sso-old", email);
    await env.server.db.update(sessions).set({ createdAt: new Date(Date.now() - 6 * 60 * 1000) }).where(eq(sessions.userId, user.id));
    const answer = await client.gql(TURN_ON);
    expect(answer.errors?.[0]).toMatchObject({ message: "Sign in again with your Microsoft account to confirm it is you, then repeat the change.", extensions: { code: "FORBIDDEN" } });
    // A password, which the account does not have, is no way around it.
    const withPassword = await client.gql(`mutation { changeDetails(input: { twoFactorAuthenticationActivated: true, password: "anything-1" }) { id } }`);
    expect(withPassword.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect((await env.server.db.select({ on: users.twoFactorAuthenticationActivated }).from(users).where(eq(users.id, user.id)))[0]?.on).toBe(false);
  });

  test("a fresh provider sign-in may make the change", async () => {
    const email = `sso-fresh-${Date.now().toString(36)}@example.test`;
    const user = await createSsoUser(env.server, email);
    env.idp.addAccount("sso-fresh", { email });
    const client = await ssoSession("sso-fresh", email);
    const answer = await client.gql(TURN_ON);
    expect(answer.errors).toBeUndefined();
    expect((await env.server.db.select({ on: users.twoFactorAuthenticationActivated }).from(users).where(eq(users.id, user.id)))[0]?.on).toBe(true);
  });
});
