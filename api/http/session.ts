import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { Actor, Services } from "../context.ts";
import { resolveReporterSession } from "../modules/reporting/sessions.ts";
import { REPORTER_COOKIE } from "../modules/reporting/session-policy.ts";
import { resolveStaffSession } from "../modules/auth/sessions.ts";
import { STAFF_COOKIE } from "../modules/auth/session-policy.ts";
import { findActiveOrganisation } from "../modules/organisations/public.ts";
import { GRAPHQL_PATH } from "../graphql/yoga.ts";
import { parseHost } from "./host.ts";
import type { AppEnv } from "./types.ts";

/** Resolves, once per request, which host face is addressed and who is asking. */
export function requestState(services: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const parsed = parseHost(c.req.header("host"), services.config.appDomain);
    const organisation = parsed.kind === "organisation" ? await findActiveOrganisation(services.database.db, parsed.slug, services.organisationCache) : null;
    // Staff sign in on the product domain, reporters on their organisation's: each host face knows one kind.
    let actor: Actor = { kind: "anonymous" };
    if (parsed.kind === "organisation") {
      const token = getCookie(c, REPORTER_COOKIE);
      if (token && organisation) actor = (await resolveReporterSession(services.database.db, token, organisation.id, services.reporterSessionCache)) ?? actor;
    } else {
      const token = getCookie(c, STAFF_COOKIE);
      if (token) actor = (await resolveStaffSession(services.database.db, token, services.sessionCache)) ?? actor;
    }
    c.set("services", services);
    c.set("state", {
      actor,
      host: {
        kind: parsed.kind,
        organisation,
        slug: parsed.kind === "organisation" ? parsed.slug : null,
      },
    });
    await next();
    // A staff member's own change through a REST route (GraphQL mutations: graphql/own-changes.ts)
    // ends their cached viewer rows here before the answer leaves.
    if ((actor.kind === "staff" || actor.kind === "two-factor-pending") && !READS.has(c.req.method) && c.req.path !== GRAPHQL_PATH) {
      services.viewerCache.forgetUser(actor.userId);
    }
  };
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);
