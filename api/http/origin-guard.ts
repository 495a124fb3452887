import type { Context, MiddlewareHandler } from "hono";
import { GRAPHQL_PATH } from "../graphql/yoga.ts";
import { logError } from "../lib/log.ts";
import type { AppEnv } from "./types.ts";

/**
 * Cross-site request refusal (docs/decisions/014-same-origin-requests.md). Every page calls the API
 * of its own host only, so a request that says it comes from any other origin is refused, including
 * another Lantern host: organisation subdomains, `login.` and `app.` are the same *site* (SameSite
 * cookies travel between them) but separate origins.
 */

export const CROSS_ORIGIN_REFUSED = "This request came from another website and was refused. Use Lantern's own pages.";
/**
 * The page is Lantern's own but reached over the other scheme: the operator's PUBLIC_ORIGIN_PROTOCOL
 * does not match the address people open (plain http in production, or TLS ended by a proxy while
 * the setting says http). Still refused, as a foreign origin would be, but named for what it is.
 */
export const protocolMismatch = (configured: "http" | "https", used: string) =>
  `This page was opened over ${used}://, but this Lantern server only accepts requests from ${configured}:// pages (its PUBLIC_ORIGIN_PROTOCOL setting). Open the page over ${configured}://, or ask whoever runs this server to set PUBLIC_ORIGIN_PROTOCOL to ${used}.`;

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
    const claimed = URL.canParse(origin) ? new URL(origin) : null;
    if (own !== null && claimed?.origin === own) return null;
    const used = claimed && own !== null ? otherScheme(claimed, protocol, own) : null;
    return used ? protocolMismatch(protocol, used) : CROSS_ORIGIN_REFUSED;
  }
  const site = headers.get("sec-fetch-site");
  return site === null || site === "same-origin" || site === "none" ? null : CROSS_ORIGIN_REFUSED;
}

/** The scheme the page used, when it is this very host reached over the scheme the setting does not name. */
function otherScheme(claimed: URL, protocol: "http" | "https", own: string): string | null {
  const used = claimed.protocol.replace(/:$/, "");
  if (used === protocol || (used !== "http" && used !== "https")) return null;
  const asConfigured = new URL(claimed.href);
  asConfigured.protocol = `${protocol}:`;
  return asConfigured.origin === own ? used : null;
}

export type OriginCheck = (headers: Headers) => string | null;

/**
 * crossOriginRefusal for one server, which also tells its operator when the cause is their setting.
 * Anyone can send such a header, so that line is written at most once a minute.
 */
export function originCheck(protocol: "http" | "https"): OriginCheck {
  let lastMismatchLog = 0;
  return (headers) => {
    const refusal = crossOriginRefusal(headers, protocol);
    if (refusal && refusal !== CROSS_ORIGIN_REFUSED && Date.now() - lastMismatchLog > 60_000) {
      lastMismatchLog = Date.now();
      logError(`Refused a request from one of this server's own pages because its scheme is not PUBLIC_ORIGIN_PROTOCOL (${protocol}). Set PUBLIC_ORIGIN_PROTOCOL to the scheme of the address people open (https behind a TLS proxy).`);
    }
    return refusal;
  };
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

export function originGuard(check: OriginCheck): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const refusal = needsCheck(c) ? check(c.req.raw.headers) : null;
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
