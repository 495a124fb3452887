import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ConfigError, parseConfig } from "../../../api/config.ts";
import { lanternHome, spawnLantern, fetchingServer, type LanternHome, type LanternProcess } from "../../helpers/lantern-process.ts";
import { RawConnection, postHead } from "../../helpers/raw-http.ts";
import { rawSocket, type RawSocket } from "../../helpers/websocket.ts";
import { loginAs } from "../../helpers/session.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";

/**
 * SIGTERM as an orchestrator sends it (decision 056): the server stops listening at once, closes
 * its sockets with 1012 so the pages reconnect, lets requests under way finish within the grace,
 * refuses late requests cleanly, and exits 0. A second signal ends it at once.
 */

const QUERY = JSON.stringify({ query: "{ __typename }" });
const SLOW_HEAD_BYTES = 10;

let home: LanternHome;
beforeAll(async () => {
  home = await lanternHome();
}, 120_000);
afterAll(() => home.remove());

/** A GraphQL request whose body has only begun to arrive: it is under way until the rest is written. */
async function requestUnderWay(server: LanternProcess): Promise<{ connection: RawConnection; finish(): void }> {
  const connection = await RawConnection.open(server.port);
  connection.write(postHead("/api/gql/query", `localhost:${server.port}`, QUERY) + QUERY.slice(0, SLOW_HEAD_BYTES));
  // The server answers another request after this one's head: it has read that head by then.
  expect((await server.fetch("/healthz")).status).toBe(200);
  return { connection, finish: () => connection.write(QUERY.slice(SLOW_HEAD_BYTES)) };
}

/** A signed-in page's socket that has finished graphql-ws's handshake (one without a session is closed when idle: decision 063). */
async function liveSocket(server: LanternProcess): Promise<RawSocket> {
  const staff = await loginAs(fetchingServer(server), "owner@demo.test", DEMO_PASSWORD);
  const socket = await rawSocket(fetchingServer(server), { cookie: staff.cookie });
  expect(socket.opened).toBe(true);
  socket.send(JSON.stringify({ type: "connection_init" }));
  expect(await socket.waitFor((message) => message.type === "connection_ack")).toBe(true);
  return socket;
}

/** What a new client gets once the stop has begun: "refused", or the status it was answered with. */
async function newRequestOutcome(server: LanternProcess): Promise<"refused" | number> {
  try {
    const response = await fetch(`${server.origin}/healthz`, { headers: { Connection: "close" } });
    return response.status;
  } catch {
    return "refused";
  }
}

describe("graceful shutdown", () => {
  test("SIGTERM: the request under way finishes, sockets close with 1012, late requests are refused cleanly, exit 0", async () => {
    const server = await spawnLantern(home);
    const keptAlive = await RawConnection.open(server.port);
    keptAlive.write(`GET /healthz HTTP/1.1\r\nHost: localhost:${server.port}\r\n\r\n`);
    expect((await keptAlive.response(5_000)).status).toBe(200);
    const socket = await liveSocket(server);
    const underWay = await requestUnderWay(server);

    server.child.kill("SIGTERM");
    // Service restart: the code the pages' graphql-ws client retries.
    expect((await socket.closed).code).toBe(1012);
    // Refused: 503 with Connection: close while the listener waits for a quiet moment, then no listener.
    expect(["refused", 503]).toContain(await newRequestOutcome(server));
    // A connection opened before the stop: its next request is refused with 503 and the connection
    // closed, or the connection is simply closed. Either way an answer, never a hang.
    keptAlive.write(`GET /healthz HTTP/1.1\r\nHost: localhost:${server.port}\r\n\r\n`);
    const late = await keptAlive.response(10_000);
    if (late.status === null) expect(late.closed).toBe(true);
    else expect({ status: late.status, connection: late.headers.connection }).toEqual({ status: 503, connection: "close" });

    underWay.finish();
    const answered = await underWay.connection.response(10_000);
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body)).toEqual({ data: { __typename: "Query" } });
    expect(await server.child.exited).toBe(0);
    expect(await server.stderr()).toBe("");
  }, 90_000);

  test("a request still under way when the grace is over is cut, and the process still exits 0 (SIGINT too)", async () => {
    const server = await spawnLantern(home, { env: { SHUTDOWN_GRACE_SECONDS: "1" } });
    const underWay = await requestUnderWay(server);
    server.child.kill("SIGINT");
    const cut = await underWay.connection.response(20_000);
    expect(cut).toMatchObject({ status: null, closed: true });
    expect(await server.child.exited).toBe(0);
  }, 90_000);

  test("SIGTERM the moment /readyz says ready stops gracefully: the signal is listened to before the server listens", async () => {
    const server = await spawnLantern(home);
    server.child.kill("SIGTERM");
    expect(await server.child.exited).toBe(0);
    expect(await server.stderr()).toBe("");
  }, 90_000);

  test("a second signal during the stop ends the process at once, with a non-zero code", async () => {
    const server = await spawnLantern(home, { env: { SHUTDOWN_GRACE_SECONDS: "600" } });
    const socket = await liveSocket(server);
    const underWay = await requestUnderWay(server);
    server.child.kill("SIGTERM");
    expect((await socket.closed).code).toBe(1012);
    server.child.kill("SIGTERM");
    expect(await server.child.exited).toBe(143);
    underWay.connection.close();
  }, 90_000);

  test("SHUTDOWN_GRACE_SECONDS is 10 by default and must be a whole number of seconds", () => {
    expect(parseConfig({}).shutdownGraceMs).toBe(10_000);
    expect(parseConfig({ SHUTDOWN_GRACE_SECONDS: "30" }).shutdownGraceMs).toBe(30_000);
    expect(() => parseConfig({ SHUTDOWN_GRACE_SECONDS: "soon" })).toThrow(ConfigError);
    expect(() => parseConfig({ SHUTDOWN_GRACE_SECONDS: "-1" })).toThrow("SHUTDOWN_GRACE_SECONDS must be a whole number of seconds");
    expect(() => parseConfig({ SHUTDOWN_GRACE_SECONDS: "86400" })).toThrow("SHUTDOWN_GRACE_SECONDS must be at most 3600");
  });
});
