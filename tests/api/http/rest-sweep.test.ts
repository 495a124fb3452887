import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { startDemoWithReporter } from "../../helpers/demo.ts";
import { rowsOf as rowsOfQuery } from "../../helpers/organisation-rows.ts";
import type { TestServer } from "../../helpers/server.ts";

/**
 * Every REST route, as an outsider would try it: wrong methods and content types, empty and
 * non-object bodies, huge strings, unknown fields and ids of the wrong shape, anonymous, signed in
 * as staff and as a reporter. Each answer is a 4xx with a message (or an ordinary answer), never a
 * 5xx, and the database is as it was. The routes are read from the app itself, so a new route is
 * swept without anyone listing it here.
 */

let server: TestServer;
const identities: { name: string; cookie: string; host: string }[] = [];
const loggedErrors: string[] = [];
const originalConsoleError = console.error;

beforeAll(async () => {
  console.error = (...args: unknown[]) => loggedErrors.push(args.map(String).join(" "));
  process.env.TEST_LOG_LEVEL = "error";
  let as, reporter;
  ({ server, as, reporter } = await startDemoWithReporter());
  delete process.env.TEST_LOG_LEVEL;
  identities.push({ name: "anonymous", cookie: "", host: "demo.localhost" });
  identities.push({ name: "staff", cookie: as.owner.cookie, host: "localhost" });
  identities.push({ name: "reporter", cookie: reporter.cookie, host: "demo.localhost" });
}, 60_000);
afterAll(async () => {
  console.error = originalConsoleError;
  await server.stop();
});

interface Route {
  method: string;
  path: string;
}

/** The app's own routes with a concrete method and path: the REST API and the health checks. */
function sweptRoutes(): Route[] {
  const seen = new Set<string>();
  return server.lantern.app.hono.routes
    .filter((route) => route.method !== "ALL" && !route.path.includes("*") && (route.path.startsWith("/api/") || !route.path.slice(1).includes("/")))
    .filter((route) => !seen.has(`${route.method} ${route.path}`) && seen.add(`${route.method} ${route.path}`))
    .map(({ method, path }) => ({ method, path }));
}

/** Ids of every wrong shape, for each `:param`. */
const WRONG_IDS = ["not-an-id", "0", "-1", "%00", "%E0%A4%A", "..%2F..%2Fetc%2Fpasswd", "a".repeat(2000), crypto.randomUUID(), `${crypto.randomUUID()}%20OR%201=1`];
const MB_STRING = "a".repeat(1024 * 1024);
/** Field names the routes read, each given values of the wrong type. */
const FIELDS = ["email", "password", "verifyToken", "reportID", "reportFormID", "submissionID", "token", "search", "limit", "offset", "answers", "widgets"];

/** [label, content type or none, body or none] */
type Body = [string, string | null, string | null];
const BODIES: Body[] = [
  ["no body", null, null],
  ["an empty JSON body", "application/json", ""],
  ["text", "text/plain", "hello"],
  ["a form", "application/x-www-form-urlencoded", "email=a&password=b"],
  ["a multipart form", "multipart/form-data; boundary=x", '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n'],
  ["XML", "application/xml", "<a/>"],
  ["broken JSON", "application/json", '{"a":'],
  ["a JSON array", "application/json", "[1,2]"],
  ["a JSON number", "application/json", "5"],
  ["a JSON string", "application/json", '"x"'],
  ["JSON null", "application/json", "null"],
  ["JSON true", "application/json", "true"],
  ["an empty JSON object", "application/json", "{}"],
  ["unknown fields", "application/json", JSON.stringify({ unknown: 1, __proto__: { admin: true }, constructor: { prototype: { x: 1 } } })],
  ["a 1 MB string", "application/json", JSON.stringify({ email: MB_STRING })],
  ["long strings in every field", "application/json", JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, "a".repeat(50_000)])))],
  ["objects in every field", "application/json", JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, { x: 1 }])))],
  ["numbers in every field", "application/json", JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, -1e308])))],
  ["lists in every field", "application/json", JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, [null, [], {}]])))],
  ["NUL in every field", "application/json", JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, "a\u0000b"])))],
];

interface Answer {
  request: string;
  status: number;
  body: string;
}

async function send(identity: (typeof identities)[number], method: string, path: string, body: Body = ["no body", null, null]): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (identity.cookie) headers.Cookie = identity.cookie;
  if (body[1]) headers["Content-Type"] = body[1];
  const response = await server.fetch(path, { method, headers, host: identity.host, ...(body[2] !== null && method !== "GET" && method !== "HEAD" ? { body: body[2] } : {}) });
  return { request: `${identity.name} ${method} ${path.slice(0, 80)} with ${body[0]}`, status: response.status, body: await response.text() };
}

/** A 5xx, or a refusal without a message a person could read. */
function problem(answer: Answer): string | null {
  if (answer.status >= 500) return `${answer.request}: ${answer.status} ${answer.body.slice(0, 200)}`;
  if (answer.status < 400 || answer.status === 405) return null;
  // Outside the API (the health checks' paths) a refusal is the site's plain 404 page.
  if (!answer.request.split(" ")[2]!.startsWith("/api/")) return answer.body.trim() ? null : `${answer.request}: ${answer.status} with an empty body`;
  let parsed: { error?: unknown; errors?: { message?: unknown }[] };
  try {
    parsed = JSON.parse(answer.body) as typeof parsed;
  } catch {
    return `${answer.request}: ${answer.status} without a JSON message: ${answer.body.slice(0, 200)}`;
  }
  const message = parsed.error ?? parsed.errors?.[0]?.message;
  return typeof message === "string" && message.length > 0 ? null : `${answer.request}: ${answer.status} without a message: ${answer.body.slice(0, 200)}`;
}

const rowsOf = <T>(query: ReturnType<typeof sql>) => rowsOfQuery<T>(server, query);

/** Rows per table: the sweep must leave every one as it found it. */
async function tableSizes(): Promise<Record<string, number>> {
  const tables = await rowsOf<{ table_name: string }>(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`);
  const sizes: Record<string, number> = {};
  for (const { table_name } of tables) sizes[table_name] = (await rowsOf<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table_name)}`))[0]?.n ?? -1;
  return sizes;
}

/** What the server logged as its own failure (a handler that threw), as opposed to notes about odd input. */
const serverFailures = () => loggedErrors.filter((line) => /Unhandled error|Unexpected error/.test(line));

const withIds = (path: string, id: string) => path.replace(/:[A-Za-z]+/g, id);
/**
 * Ending one's own session is what these calls are for, whatever else the body holds (report_finish
 * signs the reporter out once the report is sent); they are swept on their own, below.
 */
const SESSION_ENDERS = ["/api/auth/logout", "/api/auth/report_finish"];

describe("every REST route", () => {
  test("the sweep covers the API's routes and the health checks", () => {
    const paths = sweptRoutes().map((route) => `${route.method} ${route.path}`);
    for (const expected of ["GET /healthz", "GET /readyz", "POST /api/auth/login", "GET /api/files/report-attachments/:id", "POST /api/report-submissions/export-all"]) expect(paths).toContain(expected);
  });

  test("hostile requests are answered with a 4xx and a message, never a 5xx, and change nothing", async () => {
    const before = await tableSizes();
    const problems: string[] = [];
    const routes = sweptRoutes().filter((route) => !SESSION_ENDERS.includes(route.path));
    // An empty body is a valid export of everything (the list's defaults): each such export is audited, as it should be.
    let exportsServed = 0;
    const paths = [...new Set(routes.map((route) => route.path))];
    for (const identity of identities) {
      for (const route of routes) {
        const ids = route.path.includes(":") ? WRONG_IDS : [""];
        for (const id of ids) {
          const path = withIds(route.path, id);
          const bodies = route.method === "GET" ? [BODIES[0]!] : BODIES;
          for (const body of bodies) {
            const answer = await send(identity, route.method, path, body);
            const found = problem(answer);
            if (found) problems.push(found);
            if (route.path.startsWith("/api/report-submissions/") && answer.status === 200) exportsServed++;
          }
        }
      }
      // Methods no route takes, on every path.
      for (const path of paths) {
        const taken = new Set(routes.filter((route) => route.path === path).map((route) => route.method));
        for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].filter((m) => !taken.has(m))) {
          const answer = await send(identity, method, withIds(path, crypto.randomUUID()), BODIES[12]!);
          const found = problem(answer) ?? (answer.status < 400 ? `${answer.request}: ${answer.status}, served by a method the route does not take` : null);
          if (found) problems.push(found);
        }
      }
    }
    const expected = { ...before, user_activities: before.user_activities! + exportsServed };
    expect({ problems, tables: await tableSizes(), failures: serverFailures() }).toEqual({ problems: [], tables: expected, failures: [] });
  }, 600_000);

  test("signing out with any body answers without a 5xx", async () => {
    const problems: string[] = [];
    for (const path of SESSION_ENDERS) {
      for (const identity of identities) {
        for (const body of BODIES) {
          const found = problem(await send(identity, "POST", path, body));
          if (found) problems.push(found);
        }
      }
    }
    expect({ problems, failures: serverFailures() }).toEqual({ problems: [], failures: [] });
  }, 120_000);
});
