import type { Context } from "hono";
import type { Ctx, ResponseCookies } from "../context.ts";
import { NO_COOKIES } from "./cookies.ts";
import type { AppEnv } from "./types.ts";

/** The service context of one HTTP request, the same for REST handlers and GraphQL. */
export function requestCtx(c: Context<AppEnv>, cookies: ResponseCookies = NO_COOKIES): Ctx {
  const services = c.get("services");
  const state = c.get("state");
  return { db: services.database.db, actor: state.actor, host: state.host, services, cookies };
}
