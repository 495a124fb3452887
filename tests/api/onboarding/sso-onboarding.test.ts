import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { users } from "../../../db/schema/index.ts";
import { WRONG_SSO_ACCOUNT } from "../../../api/shared/messages.ts";
import { createInvite } from "../../factories/invites.ts";
import { createOrganisation } from "../../factories/users.ts";
import { confirmationCode, OnboardingBrowser } from "../../helpers/onboarding.ts";
import { listenOpenIdProvider, type LocalOpenIdProvider } from "../../helpers/openid-provider.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { callbackParams, finishSsoFlow, startSsoFlow } from "../../helpers/sso.ts";

/** Accepting an invite to a single-sign-on organisation with the matching Microsoft account (decision 036). */
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

async function ssoInvite() {
  const organisation = await createOrganisation(server.db, { enableSSO: true });
  return createInvite(server.db, { organisationId: organisation.id });
}

/** The button, the provider's pages as `subject`, and the callback page posting onboard_start with the code. */
async function startAs(subject: string, body: Record<string, unknown>) {
  const flow = await startSsoFlow(server);
  const callback = callbackParams(await idp.signInHeadless(flow.url.href, subject));
  const response = await server.fetch("/api/auth/onboard_start", {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: flow.cookie },
    body: JSON.stringify({ ...body, ssoToken: callback.token, ssoState: callback.state }),
  });
  return { response, flow, callback };
}

describe("an invite to a single-sign-on organisation", () => {
  test("cannot be started without the Microsoft account while single sign-on is set up", async () => {
    const { token, invite } = await ssoInvite();
    const started = await new OnboardingBrowser(server).start({ firstName: "A", lastName: "B", email: invite.email, inviteToken: token });
    expect(started.status).toBe(400);
  });

  test("another Microsoft account is refused with the spec's message", async () => {
    const { token, invite } = await ssoInvite();
    idp.addAccount("someone-else", { email: "someone-else@example.test" });
    const { response } = await startAs("someone-else", { firstName: "A", lastName: "B", email: invite.email, inviteToken: token });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe(WRONG_SSO_ACCOUNT);
  });

  test("the matching account starts it; the link finishes it into a single-sign-on account bound to that identity, which then signs in with Microsoft", async () => {
    const { token, invite } = await ssoInvite();
    idp.addAccount("invitee", { email: invite.email });
    const { response, flow, callback } = await startAs("invitee", { firstName: "Sso", lastName: "Member", email: invite.email, inviteToken: token });
    expect(response.status).toBe(200);
    const { prospectID } = (await response.json()) as { prospectID: string };
    // The flow is spent: the same callback cannot start another onboarding.
    const replay = await server.fetch("/api/auth/onboard_start", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: flow.cookie },
      body: JSON.stringify({ firstName: "Sso", lastName: "Member", email: invite.email, inviteToken: token, ssoToken: callback.token, ssoState: callback.state }),
    });
    // The provider will not trade a spent code again: the sign-in's own answer.
    expect(replay.status).toBe(401);

    const code = await confirmationCode(server, invite.email);
    const finished = await new OnboardingBrowser(server).finish({ prospectID, token: code });
    expect(finished.status).toBe(200);
    const [user] = await server.db.select({ isSSO: users.isSSO, passwordHash: users.passwordHash, ssoIdentity: users.ssoIdentity }).from(users).where(eq(users.email, invite.email));
    expect(user).toMatchObject({ isSSO: true, passwordHash: null });
    expect(user!.ssoIdentity).toEndWith(" invitee");

    const signIn = await startSsoFlow(server);
    const back = callbackParams(await idp.signInHeadless(signIn.url.href, "invitee"));
    expect((await finishSsoFlow(server, signIn.cookie, { ...back, verifyToken: "" })).status).toBe(200);
  });
});
