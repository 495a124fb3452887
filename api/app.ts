import { Hono } from "hono";
import { requestBodyLimit } from "./http/body-limit.ts";
import type { Server } from "bun";
import type { Services } from "./context.ts";
import { cookieCollector } from "./http/cookies.ts";
import { requestCtx } from "./http/request-context.ts";
import { reportRoutes } from "./http/report-routes.ts";
import { exportRoutes } from "./http/export-routes.ts";
import { userExportRoute } from "./http/user-export-route.ts";
import { fileRoutes, graphqlUploadGuard, isMultipartPost } from "./http/file-routes.ts";
import { multipartOperationsGuard } from "./http/graphql-multipart.ts";
import { organisationExportRoutes } from "./http/organisation-export-routes.ts";
import { createGraphqlServer, GRAPHQL_PATH } from "./graphql/yoga.ts";
import { directRequests } from "./graphql/direct-requests.ts";
import { schema } from "./graphql/schema.ts";
import { createWebSocketHandler, type SocketData } from "./graphql/websocket.ts";
import {
  ANONYMOUS_RETRY_AFTER_SECONDS,
  type AnonymousSocketBounds,
  anonymousSocketBounds,
  sessionKeyOf,
  SocketPlaces,
  TOO_MANY_ANONYMOUS_SOCKETS,
  TOO_MANY_SOCKETS,
} from "./graphql/socket-limits.ts";
import { accessLog } from "./http/access-log.ts";
import { jsonBodiesOnly, originCheck, originGuard, refuse } from "./http/origin-guard.ts";
import { authRoutes } from "./http/auth-routes.ts";
import { ssoRoutes } from "./http/sso-routes.ts";
import { onboardingRoutes } from "./http/onboarding-routes.ts";
import { healthRoutes } from "./http/health.ts";
import { countedSockets, metricsRoutes, requestMetrics } from "./http/metrics-routes.ts";
import { pageHandler } from "./http/pages.ts";
import { requestState } from "./http/session.ts";
import { securityHeaders } from "./http/security-headers.ts";
import { StaticSite } from "./http/static-site.ts";
import type { AppEnv } from "./http/types.ts";
import { logError } from "./lib/log.ts";

/** JSON bodies are small; uploads have their own, larger limits on their own routes. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

export interface LanternApp {
  fetch(request: Request, server: Server<SocketData>): Promise<Response | undefined>;
  websocket: ReturnType<typeof createWebSocketHandler>;
  hono: Hono<AppEnv>;
}

export interface AppOptions {
  siteRoot: string;
  directGraphql?: boolean;
  migrationsFolder?: string;
  /** Tighter bounds on sockets without a session, for tests that reach them (socket-limits.ts). */
  anonymousSockets?: Partial<AnonymousSocketBounds>;
}

export function createApp(services: Services, options: AppOptions): LanternApp {
  const site = new StaticSite(options.siteRoot);
  const yoga = createGraphqlServer({ production: services.config.production });
  // Tests turn it off to compare its answers with Yoga's own (tests/api/graphql/direct-requests.test.ts).
  const directPath = options.directGraphql === false ? null : directRequests(yoga, schema);
  const hono = new Hono<AppEnv>();

  const { protocol } = services.config;
  const originRefusal = originCheck(protocol);
  const secureCookies = protocol === "https";

  hono.use("*", requestMetrics());
  hono.use("*", accessLog());
  hono.use("*", securityHeaders({ https: protocol === "https" }));
  hono.route("/", healthRoutes(services, options.migrationsFolder));
  hono.route("/", metricsRoutes(services));
  // Before the session is looked up: a refused request costs no database work.
  hono.use("/api/*", originGuard(originRefusal));
  hono.use("*", requestState(services));
  const jsonBodyLimit = requestBodyLimit({
    maxSize: JSON_BODY_LIMIT_BYTES,
    onError: (c) => c.json({ error: "413 Request Entity Too Large", message: "413 Request Entity Too Large" }, 413),
  });
  const graphqlUpload = graphqlUploadGuard();
  // Uploads under /api/files carry their own, larger limit on their routes (http/file-routes.ts);
  // chat images and logos come to GraphQL as multipart requests, with their own limits (same file).
  hono.use("/api/*", (c, next) =>
    c.req.path.startsWith("/api/files/") ? next() : c.req.path === GRAPHQL_PATH && isMultipartPost(c) ? graphqlUpload(c, next) : jsonBodyLimit(c, next),
  );
  // Within that limit, a malformed upload form is a 400 before Yoga reads it (http/graphql-multipart.ts).
  const multipartOperations = multipartOperationsGuard();
  hono.use(GRAPHQL_PATH, (c, next) => (isMultipartPost(c) ? multipartOperations(c, next) : next()));
  hono.use("/api/auth/*", jsonBodiesOnly());
  hono.route("/api/auth", authRoutes(services));
  hono.route("/api/auth", ssoRoutes(services));
  hono.route("/api/auth", onboardingRoutes(services));
  hono.route("/api/auth", reportRoutes(services));
  hono.route("/api/files", fileRoutes(services));
  hono.route("/api/report-submissions", exportRoutes(services));
  hono.route("/api/admin/export", organisationExportRoutes(services));
  hono.route("/api/admin/export/users", userExportRoute(services));
  hono.on(["GET", "POST"], GRAPHQL_PATH, async (c) => {
    // Only JSON and multipart uploads (guarded above) reach GraphQL: form-encoded and text bodies are
    // what a page on another site can make a browser send with our cookies, without a preflight.
    if (c.req.method === "POST" && !/^(application\/json|multipart\/form-data)\b/i.test(c.req.header("content-type") ?? "")) {
      return c.json({ errors: [{ message: "GraphQL requests must be sent as JSON." }] }, 415);
    }
    const collector = cookieCollector(secureCookies);
    const ctx = requestCtx(c, collector.cookies);
    const direct = directPath ? await directPath.answer(c.req.raw, ctx) : { fallback: c.req.raw };
    return collector.apply(direct instanceof Response ? direct : await yoga.fetch(direct.fallback, ctx));
  });
  hono.all("/api/*", (c) => c.json({ error: "Not found" }, 404));
  hono.get("*", pageHandler(site));
  hono.onError((error, c) => {
    logError("Unhandled error", error, { path: c.req.path });
    return c.json({ error: "Something went wrong. Please try again." }, 500);
  });

  // The WebSocket upgrade needs the same request state; run the middleware chain for it through Hono.
  // Browsers send Origin on every upgrade and never preflight one: a socket opened by another
  // site's page would carry our cookies, so it is refused before it exists.
  const upgrade = new Hono<AppEnv>();
  upgrade.use("*", async (c, next) => {
    const refusal = originRefusal(c.req.raw.headers);
    if (refusal) return refuse(c, refusal, 403);
    await next();
  });
  upgrade.use("*", requestState(services));
  const anonymousBounds = anonymousSocketBounds(options.anonymousSockets);
  const places = new SocketPlaces(anonymousBounds.maxSockets);
  upgrade.get(GRAPHQL_PATH, (c) => {
    const server = (c.env as { server: Server<SocketData> }).server;
    const protocol = c.req.header("sec-websocket-protocol") ?? "";
    const ctx = requestCtx(c);
    const sessionKey = sessionKeyOf(ctx.actor);
    if (!places.take(sessionKey)) {
      if (sessionKey) return c.json({ error: TOO_MANY_SOCKETS, message: TOO_MANY_SOCKETS, code: "TOO_MANY_REQUESTS" }, 429);
      // The process is full of sockets nobody signed in on, not this client's doing alone; the
      // connection is not kept alive, so a refused upgrade holds no file descriptor.
      const headers = { "Retry-After": String(ANONYMOUS_RETRY_AFTER_SECONDS), Connection: "close" };
      return c.json({ error: TOO_MANY_ANONYMOUS_SOCKETS, message: TOO_MANY_ANONYMOUS_SOCKETS, code: "SERVICE_UNAVAILABLE" }, 503, headers);
    }
    const data: SocketData = { ctx, protocol: protocol.split(",")[0]?.trim() ?? "", sessionKey };
    if (server.upgrade(c.req.raw, { data })) return new Response(null);
    places.release(sessionKey);
    return c.text("Upgrade failed", 400);
  });

  return {
    hono,
    websocket: countedSockets(createWebSocketHandler(yoga, places, services.invalidator, anonymousBounds)),
    async fetch(request, server) {
      // A Host header that is not a host (say "a:1:2") leaves no valid request URL; every layer
      // below reads that URL, so such a request is refused here, before any of them.
      if (!URL.canParse(request.url)) return new Response("Bad Request", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" } });
      const isUpgrade = request.headers.get("upgrade")?.toLowerCase() === "websocket";
      if (isUpgrade && new URL(request.url).pathname === GRAPHQL_PATH) {
        const response = await upgrade.fetch(request, { server });
        return response.status === 200 && response.body === null ? undefined : response;
      }
      return hono.fetch(request, { server });
    },
  };
}
