import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from "jose";
import { SSO_FLOW_COOKIE } from "../../../api/http/sso-routes.ts";
import { loadIssuer, SSO_NOT_SET_UP, SSO_UNAVAILABLE, type SsoIssuer } from "../../../api/modules/auth/sso-issuer.ts";
import { decodeFlow, exchangeCode, SSO_SIGN_IN_FAILED, verifyIdToken, type SsoFlow } from "../../../api/modules/auth/sso-tokens.ts";
import { listenOpenIdProvider, SSO_CLIENT_ID, type LocalOpenIdProvider } from "../../helpers/openid-provider.ts";
import { unansweringPort } from "../../helpers/processes.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { callbackParams, finishSsoFlow, startSsoFlow } from "../../helpers/sso.ts";

/**
 * The ID token's checks, each on a token the real provider issued: its signature against the
 * published keys, issuer, audience, expiry and nonce. Whatever is wrong, the answer is the same.
 */
let idp: LocalOpenIdProvider;
let server: TestServer;
let issuer: SsoIssuer;
let flow: SsoFlow;
let idToken: string;

beforeAll(async () => {
  idp = await listenOpenIdProvider();
  server = await startTestServer({ env: idp.env });
  await idp.start([`http://localhost:${server.port}/login-ms/callback`]);
  idp.addAccount("token-subject", { email: "token.subject@example.test", email_verified: true });
  const started = await startSsoFlow(server);
  const callback = callbackParams(await idp.signInHeadless(started.url.href, "token-subject"));
  flow = decodeFlow(started.cookie.slice(SSO_FLOW_COOKIE.length + 1))!;
  const { config } = server.lantern.services;
  issuer = await loadIssuer(config.sso, config.production);
  idToken = await exchangeCode(issuer, config.sso!, flow, callback.token);
});
afterAll(async () => {
  await server.stop();
  await idp.stop();
});

const issuedAt = () => new Date(decodeJwt(idToken).iat! * 1000);

async function refused(token: string, overrides: { issuer?: string; clientId?: string; nonce?: string; now?: Date } = {}) {
  const verifying = verifyIdToken(token, { issuer: overrides.issuer ?? issuer.issuer, keys: issuer.keys }, overrides.clientId ?? SSO_CLIENT_ID, overrides.nonce ?? flow.nonce, overrides.now ?? issuedAt());
  await expect(verifying).rejects.toThrow(SSO_SIGN_IN_FAILED);
}

/** A token with the same claims, signed by a key the provider never published. */
async function signedByStranger(alg = "RS256"): Promise<string> {
  const { privateKey } = await generateKeyPair(alg);
  return new SignJWT(decodeJwt(idToken)).setProtectedHeader({ alg, kid: idp.signingKid }).sign(privateKey);
}

describe("verifyIdToken", () => {
  test("accepts the provider's token for this client and flow, and reads its identity", async () => {
    expect(decodeProtectedHeader(idToken).kid).toBe(idp.signingKid);
    const claims = await verifyIdToken(idToken, issuer, SSO_CLIENT_ID, flow.nonce, issuedAt());
    expect(claims).toEqual({ issuer: idp.issuer, subject: "token-subject", email: "token.subject@example.test" });
  });

  test("refuses it for another client (audience)", () => refused(idToken, { clientId: "someone-elses-app" }));

  test("refuses it where another issuer is expected", () => refused(idToken, { issuer: `${idp.authority}/another-tenant/v2.0` }));

  test("refuses it once expired, long after it was issued, and before it was issued", async () => {
    const { exp, iat } = decodeJwt(idToken);
    await refused(idToken, { now: new Date((exp! + 120) * 1000) });
    await refused(idToken, { now: new Date((iat! + 20 * 60) * 1000) });
    await refused(idToken, { now: new Date((iat! - 3600) * 1000) });
  });

  test("refuses it for another sign-in's nonce", () => refused(idToken, { nonce: "a-nonce-of-some-other-sign-in" }));

  test("refuses it with a changed claim (the signature no longer holds)", async () => {
    const [header, payload, signature] = idToken.split(".");
    const changed = Buffer.from(JSON.stringify({ ...decodeJwt(idToken), sub: "someone-else" })).toString("base64url");
    expect(changed).not.toBe(payload);
    await refused(`${header}.${changed}.${signature}`);
  });

  test("refuses the same claims signed by a key the provider does not publish, or not signed at all", async () => {
    await refused(await signedByStranger("RS256"));
    await refused(await signedByStranger("ES256"));
    const unsigned = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${idToken.split(".")[1]}.`;
    await refused(unsigned);
    await refused("not.a.token");
  });
});

describe("the issuer's availability", () => {
  test("a server with no single sign-on settings says so, and sends no one anywhere", async () => {
    const plain = await startTestServer();
    try {
      const response = await plain.fetch("/api/auth/login_sso/start", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: string }).error).toBe(SSO_NOT_SET_UP);
      expect(response.headers.getSetCookie()).toHaveLength(0);
    } finally {
      await plain.stop();
    }
  });

  test("an issuer that cannot be reached is a 503 with a message, never a 500", async () => {
    // Held for the test: a port found free and let go could be given to the server started next.
    const closed = await unansweringPort();
    const unreachable = await startTestServer({ env: { ...idp.env, SSO_AUTHORITY: `http://127.0.0.1:${closed.port}` } });
    try {
      const response = await unreachable.fetch("/api/auth/login_sso/start", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
      expect(response.status).toBe(503);
      expect(((await response.json()) as { error: string }).error).toBe(SSO_UNAVAILABLE);
      // A flow begun while the issuer was up cannot finish while it is down, and says why.
      const cookie = `${SSO_FLOW_COOKIE}=${Buffer.from(JSON.stringify(flow)).toString("base64url")}`;
      const finish = await finishSsoFlow(unreachable, cookie, { token: "a-code", state: flow.state });
      expect(finish.status).toBe(503);
    } finally {
      await unreachable.stop();
      await closed.close();
    }
  });
});
