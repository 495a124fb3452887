import type { Context, MiddlewareHandler } from "hono";
import { GRAPHQL_PATH } from "../graphql/yoga.ts";
import type { AppEnv } from "./types.ts";

/**
 * Cross-site request refusal (docs/decisions/014-same-origin-requests.md). Every page calls the API
 * of its own host only, so a request that says it comes from any other origin is refused, including
 * another Lantern host: organisation subdomains, `login.` and `app.` are the same *site* (SameSite
 * cookies travel between them) but separate origins.
 */

export const CROSS_ORIGIN_REFUSED = "This request came from another website and was refused. Use Lantern's own pages.";
export const JSON_ONLY = "Send this request as JSON, with the header Content-Type: application/json.";

/** The origin a browser on this host would send: PUBLIC_ORIGIN_PROTOCOL's scheme, the Host header's name and port. */
function ownOrigin(host: string | null, protocol: "http" | "https"): string | null {
  if (!host) return null;
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return null;
  }
}

/**
 * Null when the request may come from this origin's own pages, otherwise why not. A request with
 * neither Origin nor Sec-Fetch-Site is let through: no browser sends such a POST or WebSocket
 * upgrade, and non-browser clients (curl, scripts) carry no one's cookies but their own.
 */
export function crossOriginRefusal(headers: Headers, protocol: "http" | "https"): string | null {
  const origin = headers.get("origin");
  if (origin !== null) {
    // "null" (sandboxed frames, file: pages, cross-origin redirects) never parses to our origin.
    const own = ownOrigin(headers.get("host"), protocol);
    const claimed = URL.canParse(origin) ? new URL(origin).origin : null;
    return own !== null && claimed === own ? null : CROSS_ORIGIN_REFUSED;
  }
  const site = headers.get("sec-fetch-site");
  return site === null || site === "same-origin" || site === "none" ? null : CROSS_ORIGIN_REFUSED;
}

/**
 * Which requests are checked: everything under /api that changes state — every method but GET and
 * HEAD, GraphQL over HTTP in any method, and the exports (a GET export writes an audit entry).
 */
function needsCheck(c: Context<AppEnv>): boolean {
  const path = c.req.path;
  if (!path.startsWith("/api/")) return false;
  if (c.req.method !== "GET" && c.req.method !== "HEAD") return true;
  return path === GRAPHQL_PATH || path.startsWith("/api/report-submissions/");
}

/** GraphQL clients read `errors`; the REST routes answer with the spec's `error` body. */
export function refuse(c: Context, message: string, status: 403 | 415): Response {
  const code = status === 403 ? "FORBIDDEN" : "UNSUPPORTED_MEDIA_TYPE";
  if (c.req.path === GRAPHQL_PATH) return c.json({ errors: [{ message, extensions: { code } }] }, status);
  return c.json({ error: message, message, code }, status);
}

export function originGuard(protocol: "http" | "https"): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const refusal = needsCheck(c) ? crossOriginRefusal(c.req.raw.headers, protocol) : null;
    if (refusal) return refuse(c, refusal, 403);
    await next();
  };
}

/**
 * The REST auth and report calls take JSON only, as GraphQL does: a form or text/plain body is what
 * another site's page can make a browser send without a preflight. A POST with no body at all
 * (logout) needs no type. Runs after the body limit, so reading the body here is bounded.
 */
export function jsonBodiesOnly(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === "POST" && !/^application\/json\s*(;|$)/i.test(c.req.header("content-type") ?? "")) {
      // Hono keeps the text it read, so the route can read the body again.
      if (c.req.header("content-type") !== undefined || (await c.req.text()) !== "") return refuse(c, JSON_ONLY, 415);
    }
    await next();
  };
}
