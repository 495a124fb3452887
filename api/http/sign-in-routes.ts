import { Hono, type Context } from "hono";
import { setCookie } from "hono/cookie";
import type { Services } from "../context.ts";
import { parseWith } from "../lib/validation.ts";
import { loginWithMagicLink, LoginVerifyInput } from "../modules/auth/magic-link.ts";
import { STAFF_ABSOLUTE_TIMEOUT_MS, STAFF_COOKIE } from "../modules/auth/session-policy.ts";
import { verifyPasscode } from "../modules/auth/two-factor/passcode.ts";
import { loadViewer } from "../modules/users/viewer.ts";
import { errorResponse, readJsonObject } from "./auth-routes.ts";
import { requestCtx } from "./request-context.ts";
import type { AppEnv } from "./types.ts";

/** The staff session cookie, as every sign-in call sets it. */
export function setSessionCookie(c: Context, token: string, secure: boolean): void {
  setCookie(c, STAFF_COOKIE, token, { httpOnly: true, sameSite: "Lax", secure, path: "/", maxAge: Math.floor(STAFF_ABSOLUTE_TIMEOUT_MS / 1000) });
}

/**
 * What a sign-in call answers about the user. A session that still owes its two-factor step learns
 * only which step that is: nothing about the account until the passcode is given (decision 030).
 */
export async function signedInUser(services: Services, userId: string) {
  const user = await loadViewer(services.database.db, userId);
  if (!user) return null;
  if (!user.twoFactorAuthenticationActivated) return { ...user, pass2FA: true };
  return { twoFactorAuthenticationActivated: true, twoFactorAuthenticationIsSet: user.twoFactorAuthenticationIsSet, pass2FA: false };
}

/** Magic-link sign-in and the two-factor passcode (spec §7), mounted under /api/auth. */
export function signInRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const secure = services.config.protocol === "https";

  app.post("/login_verify", async (c) => {
    try {
      const input = parseWith(LoginVerifyInput, await readJsonObject(c));
      const result = await loginWithMagicLink(services.database.db, input);
      setSessionCookie(c, result.token, secure);
      return c.json({ user: await signedInUser(services, result.userId) });
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  app.post("/two_factor/verification", async (c) => {
    try {
      const userId = await verifyPasscode(requestCtx(c), await readJsonObject(c));
      return c.json({ user: { ...(await loadViewer(services.database.db, userId)), pass2FA: true } });
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  return app;
}
