import { Hono, type Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Services } from "../context.ts";
import { finishOnboarding } from "../modules/onboarding/finish.ts";
import { ChallengeRequiredError } from "../lib/proof-of-work.ts";
import { decodeFlow } from "../modules/auth/sso-tokens.ts";
import { proveSsoAccount } from "../modules/onboarding/sso.ts";
import { CONFIRMATION_LIFETIME_MS, startOnboarding } from "../modules/onboarding/start.ts";
import { SSO_FLOW_COOKIE, SSO_FLOW_COOKIE_PATH } from "./sso-routes.ts";
import { errorResponse, readJsonObject } from "./auth-routes.ts";
import { setSessionCookie, signedInUser } from "./sign-in-routes.ts";
import type { AppEnv } from "./types.ts";

/**
 * The browser that started an onboarding: it may change it (an existing onboarding is updated, not
 * duplicated) and finish it without typing the password again (decision 036). Only the sign-in calls see it.
 */
export const ONBOARDING_COOKIE = "lantern_onboarding";
// Cookie paths match whole segments, so the two calls share their parent path.
const COOKIE_PATH = "/api/auth";

/** POST /api/auth/onboard_start and /api/auth/onboard_finish (spec §7), mounted under /api/auth. */
export function onboardingRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const secure = services.config.protocol === "https";

  const start = async (c: Context<AppEnv>, body: Record<string, unknown>, sso: boolean) => {
    const flow = sso ? decodeFlow(getCookie(c, SSO_FLOW_COOKIE)) : null;
    const proof = sso ? () => proveSsoAccount(services.config, flow, { ssoToken: body.ssoToken as string, ssoState: body.ssoState as string }, new Date()) : undefined;
    const { answer, browserSecret } = await startOnboarding(services, body, { browserSecret: getCookie(c, ONBOARDING_COOKIE), ...(proof ? { sso: proof } : {}) });
    setCookie(c, ONBOARDING_COOKIE, browserSecret, { httpOnly: true, sameSite: "Strict", secure, path: COOKIE_PATH, maxAge: Math.floor(CONFIRMATION_LIFETIME_MS / 1000) });
    return answer;
  };

  // With an ssoToken (the provider's code, posted by the /login-ms/callback page), the Microsoft
  // account proves the address instead of a password; the SSO flow's cookie brings its state, PKCE
  // verifier and nonce (decision 031), and like a sign-in the flow is good for one try.
  app.post("/onboard_start", async (c) => {
    let sso = false;
    try {
      const body = await readJsonObject(c);
      sso = typeof body.ssoToken === "string" && body.ssoToken !== "";
      const answer = await start(c, body, sso);
      if (sso) deleteCookie(c, SSO_FLOW_COOKIE, { path: SSO_FLOW_COOKIE_PATH, secure });
      return c.json(answer);
    } catch (error) {
      // Only a request for proof of work keeps the flow for the repeat.
      if (sso && !(error instanceof ChallengeRequiredError)) deleteCookie(c, SSO_FLOW_COOKIE, { path: SSO_FLOW_COOKIE_PATH, secure });
      return errorResponse(c, error);
    }
  });

  app.post("/onboard_finish", async (c) => {
    try {
      const result = await finishOnboarding(services, await readJsonObject(c), getCookie(c, ONBOARDING_COOKIE));
      setSessionCookie(c, result.sessionToken, secure);
      return c.json({ user: await signedInUser(services, result.userId) });
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  return app;
}
