import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { organisations } from "../../../db/schema/index.ts";
import { isValidSlug, parseHost } from "../../../api/http/host.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { createOrganisation } from "../../factories/users.ts";
import { updateOrganisations } from "../../helpers/organisations.ts";

describe("parseHost", () => {
  test("names organisations by subdomain and reserves app, login and the product name", () => {
    expect(parseHost("acme.lantern.example", "lantern.example")).toEqual({ kind: "organisation", slug: "acme" });
    expect(parseHost("ACME.lantern.example:8443", "lantern.example")).toEqual({ kind: "organisation", slug: "acme" });
    expect(parseHost("login.lantern.example", "lantern.example")).toEqual({ kind: "report-login" });
    expect(parseHost("app.lantern.example", "lantern.example")).toEqual({ kind: "app" });
    expect(parseHost("lantern.lantern.example", "lantern.example")).toEqual({ kind: "app" });
    expect(parseHost("lantern.example", "lantern.example")).toEqual({ kind: "app" });
    expect(parseHost("127.0.0.1:3000", "lantern.example")).toEqual({ kind: "app" });
    expect(parseHost(undefined, "lantern.example")).toEqual({ kind: "app" });
    expect(isValidSlug("app")).toBe(false);
    expect(isValidSlug("northwind")).toBe(true);
    expect(isValidSlug("-bad")).toBe(false);
  });
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe("pages by host", () => {
  test("an organisation's subdomain serves its page with its data in the HTML before any script runs", async () => {
    const organisation = await createOrganisation(server.db, { name: "Acme <Safety> & Co", slug: "acme" });
    const response = await server.fetch("/", { host: "acme.localhost" });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(organisation.id);
    // Organisation text is data, never markup: escaped inside the JSON block and in the HTML.
    expect(html).toContain("Acme \\u003cSafety> & Co");
    expect(html).not.toContain("Acme <Safety>");
    // The content itself is in the HTML before any script runs.
    const withoutScripts = html.replace(/<script[\s\S]*?<\/script>/g, "");
    expect(withoutScripts).toContain("<h1>Acme &#60;Safety&#62; &#38; Co</h1>");
    expect(withoutScripts).toContain("Login to follow up");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  test("an unknown or archived organisation gets the spec's message", async () => {
    const unknown = await server.fetch("/", { host: "no-such-org.localhost" });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("Organisation was not found or is currently suspended.");

    const archived = await createOrganisation(server.db, { slug: "gone" });
    await updateOrganisations(server, eq(organisations.id, archived.id), { archived: true });
    const response = await server.fetch("/", { host: "gone.localhost" });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Organisation was not found or is currently suspended.");
  });

  test("login. serves the global report login; the bare domain and app. serve the landing page and the console", async () => {
    const login = await server.fetch("/", { host: "login.localhost" });
    expect(login.status).toBe(200);
    expect(await login.text()).toContain("report-login");

    for (const host of ["localhost", "app.localhost"]) {
      const landing = await server.fetch("/", { host });
      expect(landing.status).toBe(200);
      expect(await landing.text()).toContain("Follow up Report");
      const admin = await server.fetch("/admin/manage/reports", { host });
      expect(admin.status).toBe(200);
      expect(await admin.text()).toContain("<astro-island");
    }
    expect((await server.fetch("/admin", { host: "lantern.localhost" })).status).toBe(200);
  });

  test("unknown paths are 404 pages, on every host", async () => {
    expect((await server.fetch("/nope", { host: "localhost" })).status).toBe(404);
    expect((await server.fetch("/admin/../etc/passwd", { host: "localhost" })).status).not.toBe(500);
    expect((await server.fetch("/nope", { host: "login.localhost" })).status).toBe(404);
  });
});

describe("security baseline", () => {
  test("pages carry a CSP that allows their inline scripts only by hash", async () => {
    const response = await server.fetch("/admin", { host: "localhost" });
    const csp = response.headers.get("Content-Security-Policy")!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')*/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(response.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Strict-Transport-Security")).toBeNull();
  });

  test("the API answers no-store with a CSP that loads nothing", async () => {
    const response = await server.fetch("/api/auth/check");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(response.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
  });

  test("hashed assets are served compressed and cached for good", async () => {
    const html = await (await server.fetch("/admin", { host: "localhost" })).text();
    const asset = /src="(\/_astro\/[^"]+\.js)"/.exec(html)?.[1] ?? /(\/_astro\/[^"]+\.js)/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const response = await server.fetch(asset!, { headers: { "Accept-Encoding": "gzip, br" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toContain("immutable");
    expect(["br", "gzip"]).toContain(response.headers.get("Content-Encoding")!);
  });

  test("oversized API bodies get 413, not a 500", async () => {
    const response = await server.fetch("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: "x".repeat(2 * 1024 * 1024) });
    expect(response.status).toBe(413);
  });

  test("health and readiness", async () => {
    expect(await (await server.fetch("/healthz")).text()).toBe("ok");
    expect(await (await server.fetch("/readyz")).text()).toBe("ready");
  });

  test("a Host header that is not a host gets 400, on pages, the API and the socket path alike", async () => {
    for (const path of ["/", "/api/auth/report_start", "/api/gql/query"]) {
      const response = await server.fetch(path, { host: "demo.localhost:1" });
      expect(response.status).toBe(400);
      expect(await response.text()).toBe("Bad Request");
    }
    // The server still answers well-formed requests afterwards.
    expect(await (await server.fetch("/healthz")).text()).toBe("ok");
  });
});
