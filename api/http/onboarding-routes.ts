import { Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { Services } from "../context.ts";
import { finishOnboarding } from "../modules/onboarding/finish.ts";
import { CONFIRMATION_LIFETIME_MS, startOnboarding } from "../modules/onboarding/start.ts";
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

  app.post("/onboard_start", async (c) => {
    try {
      const body = await readJsonObject(c);
      const { answer, browserSecret } = await startOnboarding(services, body, { browserSecret: getCookie(c, ONBOARDING_COOKIE) });
      setCookie(c, ONBOARDING_COOKIE, browserSecret, { httpOnly: true, sameSite: "Strict", secure, path: COOKIE_PATH, maxAge: Math.floor(CONFIRMATION_LIFETIME_MS / 1000) });
      return c.json(answer);
    } catch (error) {
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
