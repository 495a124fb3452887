import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { organisations, reportSubmissions } from "../../../db/schema/index.ts";
import { DEMO_PASSWORD, DEMO_REPORT_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { CROSS_ORIGIN_REFUSED, crossOriginRefusal, protocolMismatch } from "../../../api/http/origin-guard.ts";
import { startDemoWithStaff } from "../../helpers/demo.ts";
import type { TestServer } from "../../helpers/server.ts";
import { cookieFrom, loginAs, type DemoStaff } from "../../helpers/session.ts";
import { demoForm, ReporterClient } from "../../helpers/reporter.ts";
import { rawSocket } from "../../helpers/websocket.ts";

/** Only a page on the request's own origin may change anything (docs/decisions/014-same-origin-requests.md). */

let server: TestServer;
let as: DemoStaff;
let formId: string;
let reportId: string;
let submissionId: string;
let reporterCookie: string;

beforeAll(async () => {
  ({ server, as } = await startDemoWithStaff());
  formId = (await demoForm(server, "demo", "Workplace Misconduct Report")).form.id;
  const [row] = await server.db
    .select({ id: reportSubmissions.id, reportId: reportSubmissions.reportId })
    .from(reportSubmissions)
    .innerJoin(organisations, eq(organisations.id, reportSubmissions.organisationId))
    .where(and(eq(organisations.slug, "demo"), eq(reportSubmissions.status, "New")));
  submissionId = row!.id;
  reportId = row!.reportId!;
  const reporter = new ReporterClient(server, "demo.localhost");
  await reporter.post("/api/auth/report_login", { reportID: reportId, password: DEMO_REPORT_PASSWORD });
  reporterCookie = reporter.cookie;
}, 60_000);
afterAll(() => server.stop());

const json = (body: unknown) => ({ headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
const chatImage = () => {
  const form = new FormData();
  form.set("operations", JSON.stringify({ query: "mutation ($file: Upload!) { reportConversationSendImage(file: $file) { id } }", variables: { file: null } }));
  form.set("map", JSON.stringify({ 0: ["variables.file"] }));
  form.set("0", new File([new Uint8Array([0xff, 0xd8, 0xff])], "photo.jpg"));
  return { body: form };
};
const attachment = () => {
  const form = new FormData();
  form.set("file", new File(["notes"], "notes.txt"));
  return { body: form };
};

type Route = { name: string; method: string; path: string; host: string; cookie: () => string; init: () => RequestInit };
const staff = () => as.owner.cookie;
const reporter = () => reporterCookie;
const nobody = () => "";

/** Every state-changing route, as the page that uses it would call it. */
const routes: Route[] = [
  { name: "staff login", method: "POST", path: "/api/auth/login", host: "localhost", cookie: nobody, init: () => json({ email: "owner@demo.test", password: DEMO_PASSWORD, verifyToken: "" }) },
  { name: "staff logout", method: "POST", path: "/api/auth/logout", host: "localhost", cookie: nobody, init: () => json({}) },
  { name: "report login", method: "POST", path: "/api/auth/report_login", host: "demo.localhost", cookie: nobody, init: () => json({ reportID: "R", password: "P" }) },
  { name: "report start", method: "POST", path: "/api/auth/report_start", host: "demo.localhost", cookie: nobody, init: () => json({ reportFormID: formId }) },
  { name: "report finish", method: "POST", path: "/api/auth/report_finish", host: "demo.localhost", cookie: nobody, init: () => json({ reportFormID: formId }) },
  { name: "report handoff", method: "POST", path: "/api/auth/report_handoff", host: "demo.localhost", cookie: nobody, init: () => json({ handoff: "h" }) },
  { name: "GraphQL over POST", method: "POST", path: "/api/gql/query", host: "localhost", cookie: staff, init: () => json({ query: "{ viewer { email } }" }) },
  { name: "GraphQL over GET", method: "GET", path: "/api/gql/query?query=%7B%20viewer%20%7B%20email%20%7D%20%7D", host: "localhost", cookie: staff, init: () => ({}) },
  { name: "GraphQL multipart (chat image)", method: "POST", path: "/api/gql/query", host: "demo.localhost", cookie: reporter, init: chatImage },
  { name: "attachment upload", method: "POST", path: "/api/files/report-attachments", host: "demo.localhost", cookie: reporter, init: attachment },
  { name: "attachment delete", method: "DELETE", path: "/api/files/report-attachments/00000000-0000-0000-0000-000000000000", host: "demo.localhost", cookie: reporter, init: () => ({}) },
  { name: "report export", method: "GET", path: `/api/report-submissions/export/${encodeURIComponent("SUBMISSION")}`, host: "localhost", cookie: staff, init: () => ({}) },
  { name: "export all", method: "POST", path: "/api/report-submissions/export-all", host: "localhost", cookie: staff, init: () => json({}) },
  { name: "reporting CSV", method: "POST", path: "/api/report-submissions/download-csv", host: "localhost", cookie: staff, init: () => json({}) },
];

async function call(route: Route, headers: Record<string, string>): Promise<Response> {
  const init = route.init();
  const all = new Headers(init.headers);
  for (const [key, value] of Object.entries(headers)) all.set(key, value);
  if (route.cookie()) all.set("Cookie", route.cookie());
  return server.fetch(route.path.replace("SUBMISSION", submissionId), { ...init, method: route.method, headers: all, host: route.host });
}

/** Each with the refusal it gets: the operator's scheme setting is named when it alone is the cause. */
const hostile = (route: Route): [string, Record<string, string>, string?][] => [
  ["another site", { Origin: "http://evil.example" }],
  ["another site on our port", { Origin: `http://evil.example:${server.port}` }],
  ["a sandboxed page (Origin: null)", { Origin: "null" }],
  ["another organisation's subdomain", { Origin: `http://northwind.localhost:${server.port}` }],
  ["the global report login", { Origin: `http://login.localhost:${server.port}` }],
  ["the same host over https", { Origin: `https://${route.host}:${server.port}` }, protocolMismatch("http", "https")],
  ["the same host on another port", { Origin: `http://${route.host}:1` }],
  ["a cross-site page that sent no Origin", { "Sec-Fetch-Site": "cross-site" }],
  ["a same-site page that sent no Origin", { "Sec-Fetch-Site": "same-site" }],
];

describe.each(routes)("$name", (route) => {
  test("refused with 403 and a clear message from any other origin", async () => {
    for (const [, headers, message = CROSS_ORIGIN_REFUSED] of hostile(route)) {
      const response = await call(route, headers);
      expect(response.status).toBe(403);
      expect(response.headers.getSetCookie()).toEqual([]);
      expect(response.headers.get("Access-Control-Allow-Origin")).toBeNull();
      const body = (await response.json()) as { error?: string; errors?: { message: string }[] };
      expect(body.error ?? body.errors?.[0]?.message).toBe(message);
    }
  });

  test("served for its own pages, for same-origin or user-typed navigation, and for clients that send neither header", async () => {
    for (const headers of <Record<string, string>[]>[{ Origin: `http://${route.host}:${server.port}` }, { "Sec-Fetch-Site": "same-origin" }, { "Sec-Fetch-Site": "none" }, {}]) {
      const response = await call(route, headers);
      expect(response.status).not.toBe(403);
      expect(await response.text()).not.toContain(CROSS_ORIGIN_REFUSED);
    }
  });
});

describe("what a refused request leaves behind", () => {
  test("a staff login from another site sets no cookie; from the console it signs in", async () => {
    const login = routes.find((r) => r.name === "staff login")!;
    expect(cookieFrom(await call(login, { Origin: "http://evil.example" }), "lantern_session")).toBeNull();
    expect(cookieFrom(await call(login, { Origin: `http://localhost:${server.port}` }), "lantern_session")).toBeTruthy();
  });

  test("a logout from another origin leaves the session signed in", async () => {
    const member = await loginAs(server, "member@demo.test", DEMO_PASSWORD);
    const logout = { headers: { "Content-Type": "application/json", Origin: `http://demo.localhost:${server.port}` }, body: "{}", method: "POST" };
    expect((await member.fetch("/api/auth/logout", logout)).status).toBe(403);
    expect(await (await member.fetch("/api/auth/check")).text()).toBe("authorised");
    expect((await member.fetch("/api/auth/logout", { ...logout, headers: { ...logout.headers, Origin: `http://localhost:${server.port}` } })).status).toBe(200);
    expect(await (await member.fetch("/api/auth/check")).text()).toBe("unauthorised");
  });
});

describe("the WebSocket upgrade", () => {
  const VIEWER = JSON.stringify({ type: "subscribe", id: "v", payload: { query: "{ viewer { email } }" } });

  test("a page on its own origin gets a socket that knows the signed-in viewer", async () => {
    const socket = await rawSocket(server, { cookie: as.owner.cookie });
    expect(socket.opened).toBe(true);
    socket.send(JSON.stringify({ type: "connection_init" }));
    socket.send(VIEWER);
    expect(await socket.waitFor((m) => m.id === "v" && m.type === "next")).toBe(true);
    expect(socket.messages).toContainEqual({ id: "v", type: "next", payload: { data: { viewer: { email: "owner@demo.test" } } } });
    socket.close();
  });

  test("another origin gets no socket at all, so no viewer, for staff and reporters alike", async () => {
    const attempts = [
      { cookie: as.owner.cookie, host: "localhost", origin: "http://evil.example" },
      { cookie: as.owner.cookie, host: "localhost", origin: `http://demo.localhost:${server.port}` },
      { cookie: as.owner.cookie, host: "localhost", origin: "null" },
      { cookie: reporterCookie, host: "demo.localhost", origin: `http://northwind.localhost:${server.port}` },
    ];
    for (const attempt of attempts) {
      const socket = await rawSocket(server, attempt);
      expect(socket.opened).toBe(false);
      expect(socket.messages).toEqual([]);
    }
    const upgrade = await server.fetch("/api/gql/query", {
      headers: { Upgrade: "websocket", Connection: "Upgrade", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Protocol": "graphql-transport-ws", Origin: "http://evil.example", Cookie: as.owner.cookie },
    });
    expect(upgrade.status).toBe(403);
    expect(((await upgrade.json()) as { errors: { message: string }[] }).errors[0]!.message).toBe(CROSS_ORIGIN_REFUSED);
  });
});

describe("CORS", () => {
  test("no origin is ever granted access: no Access-Control-Allow-Origin, no credentials", async () => {
    const own = { "Content-Type": "application/json", Cookie: as.owner.cookie, Origin: `http://localhost:${server.port}` };
    const answered = await server.fetch("/api/gql/query", { method: "POST", headers: own, body: JSON.stringify({ query: "{ viewer { email } }" }) });
    expect(answered.status).toBe(200);
    const preflight = await server.fetch("/api/gql/query", { method: "OPTIONS", headers: { Origin: "http://evil.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" } });
    const foreign = await server.fetch("/api/gql/query?query=%7B__typename%7D", { headers: { Origin: "http://evil.example" } });
    for (const response of [answered, preflight, foreign]) {
      expect(response.headers.get("Access-Control-Allow-Origin")).toBeNull();
      expect(response.headers.get("Access-Control-Allow-Credentials")).toBeNull();
    }
  });
});

describe("JSON-only REST bodies", () => {
  const paths = ["/api/auth/login", "/api/auth/logout", "/api/auth/report_login", "/api/auth/report_start", "/api/auth/report_finish", "/api/auth/report_handoff"];

  test("a text/plain, form or untyped body is refused with 415 and says to send JSON", async () => {
    const body = JSON.stringify({ email: "owner@demo.test", password: DEMO_PASSWORD, verifyToken: "" });
    for (const path of paths) {
      for (const type of ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx", null]) {
        const headers = new Headers(type ? { "Content-Type": type } : {});
        const response = await server.fetch(path, { method: "POST", headers, body: type === null ? new Blob([body]) : body });
        expect(response.status).toBe(415);
        expect(response.headers.getSetCookie()).toEqual([]);
        expect(((await response.json()) as { error: string }).error).toBe("Send this request as JSON, with the header Content-Type: application/json.");
      }
    }
  });

  test("JSON, with or without a charset, is served; so is a POST with no body at all", async () => {
    const login = await server.fetch("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json; charset=utf-8" }, body: JSON.stringify({ email: "owner@demo.test", password: DEMO_PASSWORD, verifyToken: "" }) });
    expect(login.status).toBe(200);
    expect((await server.fetch("/api/auth/logout", { method: "POST" })).status).toBe(200);
  });
});

describe("the rule itself", () => {
  const check = (headers: Record<string, string>, protocol: "http" | "https" = "http") => crossOriginRefusal(new Headers(headers), protocol);

  test("default ports and letter case do not make an origin foreign", () => {
    expect(check({ Host: "demo.lantern.example", Origin: "http://demo.lantern.example" })).toBeNull();
    expect(check({ Host: "demo.lantern.example:80", Origin: "http://demo.lantern.example" })).toBeNull();
    expect(check({ Host: "demo.lantern.example:443", Origin: "https://Demo.Lantern.example" }, "https")).toBeNull();
    expect(check({ Host: "demo.lantern.example", Origin: "https://demo.lantern.example" }, "https")).toBeNull();
  });

  test("the scheme Lantern is published under counts, and a request without a host has no own origin", () => {
    expect(check({ Host: "demo.lantern.example", Origin: "http://demo.lantern.example" }, "https")).toBe(protocolMismatch("https", "http"));
    expect(check({ Origin: "http://demo.lantern.example" })).toBe(CROSS_ORIGIN_REFUSED);
    expect(check({ Host: "demo.lantern.example", Origin: "http://demo.lantern.example.evil.example" })).toBe(CROSS_ORIGIN_REFUSED);
    expect(check({ Host: "demo.lantern.example", Origin: "not a url" })).toBe(CROSS_ORIGIN_REFUSED);
  });
});
