import type { MiddlewareHandler } from "hono";
import { infoEnabled, logInfo } from "../lib/log.ts";

/** Probes and scrapes arrive every few seconds and say nothing an operator reads a log for. */
const QUIET_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * One line per request: method, path, status, duration. Never the client address, the user agent,
 * the query string (it may hold tokens) or any header: a reporter must not be identifiable from logs.
 */
export function accessLog(): MiddlewareHandler {
  return async (c, next) => {
    if (!infoEnabled()) return next();
    const started = performance.now();
    await next();
    const path = new URL(c.req.url).pathname;
    if (QUIET_PATHS.has(path)) return;
    logInfo("request", { method: c.req.method, path: redactPath(path), status: c.res.status, ms: Math.round(performance.now() - started) });
  };
}

/** Path segments that carry secrets (invite, reset and email-change tokens) are not written down. */
function redactPath(path: string): string {
  return path.replace(/^\/(onboarding|admin\/reset-password|verify|admin\/verify|admin\/confirm-email|admin\/cancel-email-change)\/[^/]+/, "/$1/:token");
}
