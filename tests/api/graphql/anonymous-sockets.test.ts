import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ANONYMOUS_IDLE_CLOSE, ANONYMOUS_SOCKET_BOUNDS, anonymousSocketBounds, TOO_MANY_ANONYMOUS_SOCKETS } from "../../../api/graphql/socket-limits.ts";
import { startDemoWithReporter, startDemoWithStaff } from "../../helpers/demo.ts";
import type { TestServer } from "../../helpers/server.ts";
import { rawSocket, type RawSocket } from "../../helpers/websocket.ts";

/**
 * Sockets without a session are bounded (docs/decisions/063-anonymous-sockets.md): a few per process
 * at once, each closed once it runs nothing, while signed-in staff and reporters connect regardless.
 * The bounds are lowered here so they are reached quickly.
 */

const CAP = 3;
const IDLE_MS = 300;

/** The cap is reached here; its sockets must outlive the test, so idleness keeps production's bound. */
let capped: Awaited<ReturnType<typeof startDemoWithReporter>>;
/** Idleness is reached here. */
let idle: Awaited<ReturnType<typeof startDemoWithStaff>>;

beforeAll(async () => {
  [capped, idle] = await Promise.all([startDemoWithReporter({ anonymousSockets: { maxSockets: CAP } }), startDemoWithStaff({ anonymousSockets: { idleMs: IDLE_MS } })]);
}, 60_000);
afterAll(async () => {
  await Promise.all([capped.server.stop(), idle.server.stop()]);
});

const frame = (value: unknown) => JSON.stringify(value);
const isType = (type: string) => (m: Record<string, unknown>) => m.type === type;

async function initialised(server: TestServer, options: { cookie?: string; host?: string } = {}): Promise<RawSocket> {
  const socket = await rawSocket(server, options);
  expect(socket.opened).toBe(true);
  socket.send(frame({ type: "connection_init" }));
  expect(await socket.waitFor(isType("connection_ack"))).toBe(true);
  return socket;
}

/** A place is given back when the server has handled the close, a moment after the client sees it. */
async function anonymousOnceFreed(server: TestServer): Promise<RawSocket | null> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const socket = await rawSocket(server);
    if (socket.opened) return socket;
    await Bun.sleep(20);
  }
  return null;
}

function upgradeRequest(server: TestServer) {
  return server.fetch("/api/gql/query", {
    headers: { Upgrade: "websocket", Connection: "Upgrade", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Protocol": "graphql-transport-ws" },
  });
}

describe("the cap on anonymous sockets", () => {
  test("beyond it a new anonymous socket is refused, while a staff and a signed-in reporter's socket still connect; a freed place is used again", async () => {
    const { server, as, reporter } = capped;
    const held = await Promise.all(Array.from({ length: CAP }, () => initialised(server)));

    expect((await rawSocket(server)).opened).toBe(false);
    const refused = await upgradeRequest(server);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("Retry-After")).toBe("5");
    expect(((await refused.json()) as { error: string }).error).toBe(TOO_MANY_ANONYMOUS_SOCKETS);

    const staff = await initialised(server, { cookie: as.owner.cookie });
    const reporterSocket = await initialised(server, { cookie: reporter.cookie, host: "demo.localhost" });
    // Signed in, they run what anonymous sockets cannot.
    staff.send(frame({ type: "subscribe", id: "s", payload: { query: "subscription { organisationUserStats { __typename } }" } }));
    expect(await staff.waitFor((m) => m.id === "s" && m.type === "next")).toBe(true);
    reporterSocket.send(frame({ type: "subscribe", id: "r", payload: { query: "subscription { reportConversationTotalUnreadMessages }" } }));
    expect(await reporterSocket.waitFor((m) => m.id === "r" && m.type === "next")).toBe(true);

    held[0]!.close();
    await held[0]!.closed;
    const again = await anonymousOnceFreed(server);
    expect(again?.opened).toBe(true);
    for (const socket of [...held, again!, staff, reporterSocket]) socket.close();
    await Promise.all(held.map((socket) => socket.closed));
  });

  test("broken frames and refused upgrades change nothing: a socket closed for them gives its place back, a refused upgrade takes none", async () => {
    const { server } = capped;
    // Another site's page, and a subprotocol graphql-ws does not speak.
    for (let i = 0; i < CAP * 2; i++) expect((await rawSocket(server, { origin: "http://evil.example" })).opened).toBe(false);
    const wrongProtocol = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${server.port}/api/gql/query`, "not-graphql");
      socket.addEventListener("close", (event) => resolve(event.code));
    });
    expect(wrongProtocol).toBe(4406);
    const garbled = await Promise.all(Array.from({ length: CAP }, () => initialised(server)));
    for (const socket of garbled) socket.send('{"type":');
    for (const socket of garbled) expect((await socket.closed).code).toBe(4400);

    const held: RawSocket[] = [];
    for (let i = 0; i < CAP; i++) {
      const socket = await anonymousOnceFreed(server);
      expect(socket?.opened).toBe(true);
      held.push(socket!);
    }
    expect((await rawSocket(server)).opened).toBe(false);
    for (const socket of held) socket.close();
    await Promise.all(held.map((socket) => socket.closed));
  });
});

describe("idle anonymous sockets", () => {
  test("one that runs nothing is closed after the limit, with a code its client reconnects on only while it still wants something", async () => {
    const staff = await initialised(idle.server, { cookie: idle.as.owner.cookie });
    const anonymous = await initialised(idle.server);
    expect(await anonymous.closed).toEqual(ANONYMOUS_IDLE_CLOSE);
    // The staff socket, open as long, is not idle-closed: it still answers.
    staff.send(frame({ type: "ping" }));
    expect(await staff.waitFor(isType("pong"))).toBe(true);
    staff.close();
  });

  test("one that never sends connection_init is closed too", async () => {
    const silent = await rawSocket(idle.server);
    expect(silent.opened).toBe(true);
    expect(await silent.closed).toEqual(ANONYMOUS_IDLE_CLOSE);
    expect(silent.messages).toEqual([]);
  });

  test("pings, pongs and completes of nothing keep no anonymous socket open", async () => {
    const socket = await initialised(idle.server);
    const chatter = setInterval(() => {
      socket.send(frame({ type: "ping" }));
      socket.send(frame({ type: "pong" }));
      socket.send(frame({ type: "complete", id: "never-subscribed" }));
    }, IDLE_MS / 6);
    try {
      expect(await socket.closed).toEqual(ANONYMOUS_IDLE_CLOSE);
    } finally {
      clearInterval(chatter);
    }
  });
});

describe("the bounds themselves", () => {
  test("a test may tighten them; nothing may loosen what production runs", () => {
    expect(anonymousSocketBounds()).toEqual(ANONYMOUS_SOCKET_BOUNDS);
    expect(anonymousSocketBounds({ maxSockets: 2, idleMs: 10 })).toEqual({ maxSockets: 2, idleMs: 10 });
    expect(anonymousSocketBounds({ maxSockets: 1_000_000, idleMs: 3_600_000 })).toEqual(ANONYMOUS_SOCKET_BOUNDS);
  });
});
