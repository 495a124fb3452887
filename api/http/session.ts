import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { Services } from "../context.ts";
import { resolveStaffSession } from "../modules/auth/sessions.ts";
import { STAFF_COOKIE } from "../modules/auth/session-policy.ts";
import { findActiveOrganisation } from "../modules/organisations/public.ts";
import { parseHost } from "./host.ts";
import type { AppEnv } from "./types.ts";

/** Resolves, once per request, which host face is addressed and who is asking. */
export function requestState(services: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const parsed = parseHost(c.req.header("host"), services.config.appDomain);
    const organisation = parsed.kind === "organisation" ? await findActiveOrganisation(services.database.db, parsed.slug) : null;
    const token = getCookie(c, STAFF_COOKIE);
    const staff = token ? await resolveStaffSession(services.database.db, token) : null;
    c.set("services", services);
    c.set("state", {
      actor: staff ?? { kind: "anonymous" },
      host: {
        kind: parsed.kind,
        organisation,
        slug: parsed.kind === "organisation" ? parsed.slug : null,
      },
    });
    await next();
  };
}
