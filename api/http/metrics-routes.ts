import { createHash, timingSafeEqual } from "node:crypto";
import { readdir } from "node:fs/promises";
import type { WebSocketHandler } from "bun";
import { Hono, type MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { Services } from "../context.ts";
import { hashingGateState } from "../lib/passwords.ts";
import { cleaningPoolState } from "../modules/files/cleaning-pool.ts";
import {
  cleaningInProgress,
  cleaningWaiting,
  hashingInProgress,
  hashingWaiting,
  httpDuration,
  httpRequests,
  openSockets,
  outboxMessages,
  renderMetrics,
  residentMemory,
  uptime,
} from "../lib/metrics.ts";
import { parseHost } from "./host.ts";
import type { AppEnv } from "./types.ts";

export const METRICS_PATH = "/metrics";
const EXPOSITION_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** Methods a client may invent are many; the label knows these and calls the rest "other". */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * Counts and times every request under the pattern of the route that answered it ("/api/files/:id",
 * "/api/gql/query", "/*" for pages and anything unmatched): a pattern is written in code, so no
 * path, host, slug or ID reaches a label, and the number of series stays bounded.
 */
export function requestMetrics(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = routePath(c) || "unmatched";
      const method = KNOWN_METHODS.has(c.req.method) ? c.req.method : "other";
      // An error thrown past Hono's own handler leaves no response yet: it becomes a 500.
      const status = c.finalized ? String(c.res.status) : "500";
      httpRequests.inc({ route, method, status });
      httpDuration.observe({ route }, (performance.now() - started) / 1000);
    }
  };
}

/**
 * GET /metrics for a Prometheus scraper, only on the product's own host (never an organisation's
 * subdomain or the report login), only with `Authorization: Bearer METRICS_TOKEN`, and not at all
 * when no token is set.
 */
export function metricsRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const token = services.config.metricsToken;
  const expected = token === null ? null : digest(token);
  app.get(METRICS_PATH, async (c) => {
    c.header("Cache-Control", "no-store");
    if (expected === null || parseHost(c.req.header("host"), services.config.appDomain).kind !== "app") return c.text("Not found", 404);
    if (!bearerMatches(c.req.header("authorization"), expected)) {
      c.header("WWW-Authenticate", 'Bearer realm="metrics"');
      return c.text("Unauthorized", 401);
    }
    await refreshScrapeTimeGauges(services);
    return c.body(renderMetrics(), 200, { "Content-Type": EXPOSITION_TYPE });
  });
  return app;
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** Compared as digests of equal length, so the time taken says nothing about the token. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? "");
  return match !== null && timingSafeEqual(digest(match[1]!), expected);
}

/** The values that are read rather than counted, set just before they are shown. */
async function refreshScrapeTimeGauges(services: Services): Promise<void> {
  const gate = hashingGateState();
  hashingInProgress.set({}, gate.running);
  for (const [lane, count] of Object.entries(gate.waiting)) hashingWaiting.set({ lane }, count);
  const cleaning = cleaningPoolState();
  cleaningInProgress.set({}, cleaning.running);
  for (const [lane, count] of Object.entries(cleaning.waiting)) cleaningWaiting.set({ lane }, count);
  residentMemory.set({}, process.memoryUsage.rss());
  uptime.set({}, Math.floor(process.uptime()));
  const mail = services.config.mail;
  if (mail.kind === "outbox") {
    // No directory yet is an empty outbox: nothing has been sent.
    const names = await readdir(mail.directory).catch(() => [] as string[]);
    outboxMessages.set({}, names.filter((name) => name.endsWith(".eml")).length);
  }
}

/** The socket handler, with the open-connection gauge kept beside its own bookkeeping. */
export function countedSockets<T>(handler: WebSocketHandler<T>): WebSocketHandler<T> {
  return {
    ...handler,
    open(socket) {
      openSockets.inc();
      return handler.open?.(socket);
    },
    close(socket, code, reason) {
      openSockets.dec();
      return handler.close?.(socket, code, reason);
    },
  };
}
