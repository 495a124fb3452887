import { Hono, type Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Services } from "../context.ts";
import { badInput } from "../lib/errors.ts";
import { ChallengeRequiredError } from "../lib/proof-of-work.ts";
import { parseWith } from "../lib/validation.ts";
import { loadIssuer } from "../modules/auth/sso-issuer.ts";
import { loginWithSso, SsoLoginInput } from "../modules/auth/sso-sign-in.ts";
import { authorizationRequest, decodeFlow, encodeFlow, SSO_FLOW_LIFETIME_MS } from "../modules/auth/sso-tokens.ts";
import { errorResponse, readJsonObject } from "./auth-routes.ts";
import { setSessionCookie, signedInUser } from "./sign-in-routes.ts";
import type { AppEnv } from "./types.ts";

/** Where the provider sends the browser back (spec: a top-level path, not under /admin). */
export const SSO_CALLBACK_PATH = "/login-ms/callback";
/**
 * The flow's secrets, never readable by a script and sent only to the sign-in calls: the two below,
 * and POST /api/auth/onboard_start with an ssoToken (an invited member onboarding with Microsoft).
 */
export const SSO_FLOW_COOKIE = "lantern_sso_flow";
export const SSO_FLOW_COOKIE_PATH = "/api/auth";

/**
 * 'Sign in With Microsoft Account' (docs/decisions/031-single-sign-on.md). The console asks
 * POST /api/auth/login_sso/start for the provider's address and goes there; the provider sends the
 * browser to /login-ms/callback, whose page posts the code and state to POST /api/auth/login_sso.
 * Both are JSON POSTs, so the same-origin guard covers them; the flow cookie is SameSite=Strict.
 */
export function ssoRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const secure = services.config.protocol === "https";
  const flowCookie = { httpOnly: true, sameSite: "Strict", secure, path: SSO_FLOW_COOKIE_PATH } as const;

  app.post("/login_sso/start", async (c) => {
    try {
      const body = await readJsonObject(c);
      const redirectUri = callbackUrl(c, services.config.protocol);
      const issuer = await loadIssuer(services.config.sso, services.config.production);
      const { url, flow } = authorizationRequest(issuer, services.config.sso!, redirectUri, new Date(), { reauthenticate: body.reauthenticate === true });
      setCookie(c, SSO_FLOW_COOKIE, encodeFlow(flow), { ...flowCookie, maxAge: Math.floor(SSO_FLOW_LIFETIME_MS / 1000) });
      return c.json({ url });
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  app.post("/login_sso", async (c) => {
    const flow = decodeFlow(getCookie(c, SSO_FLOW_COOKIE));
    try {
      const input = parseWith(SsoLoginInput, await readJsonObject(c));
      const result = await loginWithSso(services.database.db, services.config, input, flow);
      deleteCookie(c, SSO_FLOW_COOKIE, flowCookie);
      // As a password sign-in: an account with two-factor authentication still owes its passcode.
      setSessionCookie(c, result.token, secure);
      return c.json({ user: await signedInUser(services, result.userId) });
    } catch (error) {
      // One try per flow, whatever its outcome: a failed callback starts again from the button. Only
      // a request for proof of work keeps it, for the page to repeat the same callback with the solution.
      if (!(error instanceof ChallengeRequiredError)) deleteCookie(c, SSO_FLOW_COOKIE, flowCookie);
      return errorResponse(c, error);
    }
  });

  return app;
}

/** The callback on the host the console was reached by; staff sign in on the product domain only. */
function callbackUrl(c: Context<AppEnv>, protocol: "http" | "https"): string {
  const host = c.req.header("host") ?? "";
  if (c.get("state").host.kind !== "app" || !URL.canParse(`${protocol}://${host}`)) throw badInput("Sign in from the admin console's own address.");
  return new URL(SSO_CALLBACK_PATH, `${protocol}://${host}`).toString();
}
