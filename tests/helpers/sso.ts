import { afterAll, beforeAll } from "bun:test";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { SSO_FLOW_COOKIE } from "../../api/http/sso-routes.ts";
import { createOrganisation, createUser } from "../factories/users.ts";
import { listenOpenIdProvider, type LocalOpenIdProvider } from "./openid-provider.ts";
import { startTestServer, type TestServer } from "./server.ts";
import { postSolving } from "./proof-of-work.ts";
import { cookieFrom } from "./session.ts";

/**
 * A local OpenID provider and a server that trusts it, for this test file: started before its tests
 * and stopped after. Read the fields inside tests, once they are set.
 */
export function serverWithOpenIdProvider(): { readonly idp: LocalOpenIdProvider; readonly server: TestServer } {
  const state = {} as { idp: LocalOpenIdProvider; server: TestServer };
  beforeAll(async () => {
    state.idp = await listenOpenIdProvider();
    state.server = await startTestServer({ env: state.idp.env });
    await state.idp.start([`http://localhost:${state.server.port}/login-ms/callback`]);
  });
  afterAll(async () => {
    await state.server.stop();
    await state.idp.stop();
  });
  return state;
}

/** A staff account made for single sign-on: no password, in an organisation with enableSSO (or not). */
export async function createSsoUser(server: TestServer, email: string, options: { enableSSO?: boolean; organisationId?: string } = {}) {
  const organisationId = options.organisationId ?? (await createOrganisation(server.db, { enableSSO: options.enableSSO ?? true })).id;
  const user = await createUser(server.db, { role: "MEMBER", organisationId, email });
  await server.db.update(users).set({ isSSO: true, passwordHash: null }).where(eq(users.id, user.id));
  return { ...user, organisationId };
}

export interface StartedFlow {
  /** The provider's authorization address Lantern sent the browser to. */
  url: URL;
  /** `lantern_sso_flow=…`, as the browser keeps it. */
  cookie: string;
  response: Response;
}

export async function startSsoFlow(server: TestServer, host = "localhost"): Promise<StartedFlow> {
  const response = await server.fetch("/api/auth/login_sso/start", { method: "POST", host, headers: { "Content-Type": "application/json" }, body: "{}" });
  if (response.status !== 200) throw new Error(`start answered ${response.status}: ${await response.text()}`);
  const { url } = (await response.json()) as { url: string };
  return { url: new URL(url), cookie: `${SSO_FLOW_COOKIE}=${cookieFrom(response, SSO_FLOW_COOKIE)}`, response };
}

/** What the console's /login-ms/callback page posts, solving proof of work when asked as the page does. */
export async function finishSsoFlow(server: TestServer, cookie: string, body: Record<string, unknown>): Promise<Response> {
  return (await postSolving((payload) => postSsoCallback(server, cookie, payload), body)).response;
}

/** One POST /api/auth/login_sso, as it is: a request for proof of work is answered, not solved. */
export function postSsoCallback(server: TestServer, cookie: string, body: Record<string, unknown>): Promise<Response> {
  return server.fetch("/api/auth/login_sso", { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: JSON.stringify(body) });
}

/** The callback's `code` and `state`, as the page reads them from its address. */
export function callbackParams(callback: URL): { token: string; state: string } {
  return { token: callback.searchParams.get("code") ?? "", state: callback.searchParams.get("state") ?? "" };
}
