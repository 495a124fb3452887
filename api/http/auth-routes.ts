import { Hono, type Context } from "hono";
import { deleteCookie } from "hono/cookie";
import type { Services } from "../context.ts";
import { UserError } from "../lib/errors.ts";
import { HashingBusyError } from "../lib/passwords.ts";
import { ChallengeRequiredError } from "../lib/proof-of-work.ts";
import { parseWith, rejectNul } from "../lib/validation.ts";
import { LoginInput, login, logout } from "../modules/auth/login.ts";
import { STAFF_COOKIE } from "../modules/auth/session-policy.ts";
import { userDisconnectTopic, type UserDisconnectEvent } from "../modules/auth/events.ts";
import { accountAccessRoutes } from "./account-access-routes.ts";
import { setSessionCookie, signedInUser, signInRoutes } from "./sign-in-routes.ts";
import type { AppEnv } from "./types.ts";

/**
 * Reads a JSON body, answering 400 for anything that is not a JSON object, or that holds a NUL
 * character in any key or string (Postgres would refuse it mid-request; no one types one).
 */
export async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new UserError("BAD_USER_INPUT", "The request body must be a JSON object.");
  rejectNul(value);
  return value as Record<string, unknown>;
}

/** The spec's error body for REST calls: `error` for banners, `fields` for per-field messages. */
export function errorResponse(c: Context, error: unknown): Response {
  if (error instanceof UserError) {
    if (error.retryAfterSeconds) c.header("Retry-After", String(error.retryAfterSeconds));
    // A challenge answer carries the challenge, so the client can solve it and repeat the request.
    const challenge = error instanceof ChallengeRequiredError ? { challenge: error.challenge } : {};
    return c.json({ error: error.message, message: error.message, code: error.code, fields: error.fields, ...challenge }, error.status as 400);
  }
  if (error instanceof HashingBusyError) {
    c.header("Retry-After", "5");
    return c.json({ error: error.message, message: error.message, code: "UNAVAILABLE" }, 503);
  }
  throw error;
}

export function authRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const secure = services.config.protocol === "https";

  app.post("/login", async (c) => {
    try {
      const input = parseWith(LoginInput, await readJsonObject(c));
      const result = await login(services.database.db, services.mailer, services.config, input);
      if (result.kind === "email-verify-required") return c.json({ emailVerifyRequired: true });
      setSessionCookie(c, result.token, secure);
      return c.json({ user: await signedInUser(services, result.userId) });
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  app.post("/logout", async (c) => {
    const actor = c.get("state").actor;
    await logout(services.database.db, services.invalidator, actor);
    if (actor.kind === "staff" || actor.kind === "two-factor-pending") {
      await services.pubsub.publish(userDisconnectTopic(actor.userId), { sessionTokenHash: actor.sessionTokenHash } satisfies UserDisconnectEvent);
    }
    deleteCookie(c, STAFF_COOKIE, { path: "/", secure });
    return c.json({ ok: true });
  });

  app.route("/", accountAccessRoutes(services));
  app.route("/", signInRoutes(services));

  app.get("/check", (c) => {
    const actor = c.get("state").actor;
    // A session that owes its passcode is not gone: the console shows it the two-factor screens.
    return c.text(actor.kind === "staff" ? "authorised" : actor.kind === "two-factor-pending" ? "two_factor_required" : "unauthorised");
  });

  return app;
}
