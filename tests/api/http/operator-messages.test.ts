import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CROSS_ORIGIN_REFUSED, crossOriginRefusal, protocolMismatch } from "../../../api/http/origin-guard.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { rawSocket } from "../../helpers/websocket.ts";

/**
 * What an operator's own mistake, or a reporter's ordinary use, looks like in answers and in the
 * server log: a misconfiguration names its setting; normal use is not logged as an error.
 */

let server: TestServer;
const errorLines: string[] = [];
const infoLines: string[] = [];
const originalError = console.error;
const originalLog = console.log;

beforeAll(async () => {
  // The server runs in this process and logs at info level here: its lines are recorded.
  console.error = (...args: unknown[]) => errorLines.push(args.map(String).join(" "));
  console.log = (...args: unknown[]) => infoLines.push(args.map(String).join(" "));
  process.env.TEST_LOG_LEVEL = "info";
  // As a production server reached over plain http: published as https, opened as http.
  server = await startTestServer({ env: { PUBLIC_ORIGIN_PROTOCOL: "https" } });
  delete process.env.TEST_LOG_LEVEL;
}, 60_000);

afterAll(async () => {
  await server.stop();
  console.error = originalError;
  console.log = originalLog;
});

const ownPageOverHttp = () => ({ "Content-Type": "application/json", Origin: `http://localhost:${server.port}` });

describe("PUBLIC_ORIGIN_PROTOCOL that does not match the address people open", () => {
  test("sign-in is still refused, with a message that names the setting rather than another website", async () => {
    const response = await server.fetch("/api/auth/login", { method: "POST", headers: ownPageOverHttp(), body: JSON.stringify({ email: "owner@demo.test", password: "x", verifyToken: "" }) });
    expect(response.status).toBe(403);
    const body = (await response.json()) as { error: string };
    expect(body.error).toBe(protocolMismatch("https", "http"));
    expect(body.error).toContain("PUBLIC_ORIGIN_PROTOCOL");
    expect(body.error).not.toBe(CROSS_ORIGIN_REFUSED);
  });

  test("the server log names the setting, once however many requests it refuses", async () => {
    for (let i = 0; i < 3; i++) await server.fetch("/api/gql/query", { method: "POST", headers: ownPageOverHttp(), body: JSON.stringify({ query: "{ __typename }" }) });
    const lines = errorLines.filter((line) => line.includes("PUBLIC_ORIGIN_PROTOCOL"));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: "error", message: expect.stringContaining("PUBLIC_ORIGIN_PROTOCOL (https)") });
  });

  test("a WebSocket from that page is refused with the same words", async () => {
    const socket = await rawSocket(server, { origin: `http://localhost:${server.port}` });
    expect(socket.opened).toBe(false);
    const upgrade = await server.fetch("/api/gql/query", {
      headers: { Upgrade: "websocket", Connection: "Upgrade", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Protocol": "graphql-transport-ws", Origin: `http://localhost:${server.port}` },
    });
    expect(upgrade.status).toBe(403);
    expect(((await upgrade.json()) as { errors: { message: string }[] }).errors[0]!.message).toBe(protocolMismatch("https", "http"));
  });

  test("another website, over either scheme, is still just another website", () => {
    for (const origin of ["http://evil.example", "https://evil.example", "http://localhost.evil.example", "http://localhost:1"]) {
      expect(crossOriginRefusal(new Headers({ Host: "localhost:3000", Origin: origin }), "https")).toBe(CROSS_ORIGIN_REFUSED);
    }
    // Behind a TLS proxy with the setting left at http, the page is https: the message says so.
    expect(crossOriginRefusal(new Headers({ Host: "demo.lantern.example", Origin: "https://demo.lantern.example" }), "http")).toBe(protocolMismatch("http", "https"));
    expect(crossOriginRefusal(new Headers({ Host: "demo.lantern.example:8443", Origin: "http://demo.lantern.example:8443" }), "https")).toBe(protocolMismatch("https", "http"));
  });
});

describe("Quick Exit outside a form", () => {
  test("report_finish without a form id does nothing and is logged as information, not as an error", async () => {
    const response = await server.fetch("/api/auth/report_finish", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}", host: "demo.localhost" });
    expect(((await response.json()) as { ok: boolean }).ok).toBe(false);
    expect(errorLines.filter((line) => line.includes("report_finish"))).toEqual([]);
    const lines = infoLines.filter((line) => line.includes("report_finish called without a reportFormID"));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: "info" });
  });
});
