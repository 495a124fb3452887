import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  MAX_FRAME_BYTES,
  MAX_OPERATIONS_PER_SOCKET,
  MAX_SOCKETS_PER_SESSION,
  OPERATION_BURST,
  OperationBudget,
  OPERATIONS_PER_SECOND,
  OPERATIONS_TOO_FAST,
  TOO_MANY_OPERATIONS,
} from "../../../api/graphql/socket-limits.ts";
import { startDemoWithReporter } from "../../helpers/demo.ts";
import type { TestServer } from "../../helpers/server.ts";
import type { DemoStaff } from "../../helpers/session.ts";
import { rawSocket, type RawSocket } from "../../helpers/websocket.ts";

/**
 * One socket, and one session's sockets, hold a bounded amount (docs/decisions/019-input-bounds.md):
 * what goes past a bound is refused for that operation or that socket alone.
 */

let server: TestServer;
let as: DemoStaff;
let reporterCookie: string;

beforeAll(async () => {
  let reporter;
  ({ server, as, reporter } = await startDemoWithReporter());
  reporterCookie = reporter.cookie;
}, 60_000);
afterAll(() => server.stop());

const frame = (value: unknown) => JSON.stringify(value);
const subscribe = (id: string, query: string) => frame({ type: "subscribe", id, payload: { query } });
const errorsOf = (socket: RawSocket, id: string): string[] =>
  socket.messages.flatMap((m) => {
    const message = m as { id?: string; type?: string; payload?: { message: string }[] };
    return message.id === id && message.type === "error" ? (message.payload ?? []).map((e) => e.message) : [];
  });
const answered = (socket: RawSocket, id: string) => socket.waitFor((m) => m.id === id && (m.type === "next" || m.type === "error"));

async function initialised(cookie: string, host = "localhost"): Promise<RawSocket> {
  const socket = await rawSocket(server, { cookie, host });
  expect(socket.opened).toBe(true);
  socket.send(frame({ type: "connection_init" }));
  expect(await socket.waitFor((m) => m.type === "connection_ack")).toBe(true);
  return socket;
}

/** Live values that answer at once with the current value, so a running subscription shows itself. */
const identities = [
  { name: "staff", cookie: () => as.owner.cookie, host: "localhost", live: "subscription { organisationUserStats { __typename } }" },
  { name: "reporter", cookie: () => reporterCookie, host: "demo.localhost", live: "subscription { reportConversationTotalUnreadMessages }" },
];

describe.each(identities)("a $name socket", ({ cookie, host, live }) => {
  test(`runs ${MAX_OPERATIONS_PER_SOCKET} subscriptions at once; one more is refused alone, and a freed place can be used again`, async () => {
    const socket = await initialised(cookie(), host);
    for (let i = 0; i < MAX_OPERATIONS_PER_SOCKET; i++) socket.send(subscribe(`s${i}`, live));
    for (let i = 0; i < MAX_OPERATIONS_PER_SOCKET; i++) expect(await answered(socket, `s${i}`)).toBe(true);
    expect(Array.from({ length: MAX_OPERATIONS_PER_SOCKET }, (_, i) => errorsOf(socket, `s${i}`)).flat()).toEqual([]);

    socket.send(subscribe("extra", live));
    expect(await answered(socket, "extra")).toBe(true);
    expect(errorsOf(socket, "extra")).toEqual([TOO_MANY_OPERATIONS]);
    expect(socket.messages).toContainEqual(expect.objectContaining({ id: "extra", type: "error", payload: [expect.objectContaining({ extensions: { code: "TOO_MANY_REQUESTS" } })] }));
    // The others run on: none was completed, and the socket still answers.
    expect(socket.messages.some((m) => (m as { type?: string }).type === "complete")).toBe(false);
    socket.send(frame({ type: "ping" }));
    expect(await socket.waitFor((m) => m.type === "pong")).toBe(true);

    socket.send(frame({ type: "complete", id: "s0" }));
    socket.send(subscribe("after", live));
    expect(await answered(socket, "after")).toBe(true);
    expect(errorsOf(socket, "after")).toEqual([]);
    socket.close();
  });

  test("a flood of subscribe/complete pairs is refused operation by operation once the burst is spent; the socket stays open", async () => {
    // (The refill itself is checked with a clock of its own, below.)
    const socket = await initialised(cookie(), host);
    // Cheap operations, many times the burst: the steady refill cannot keep up with them however busy the machine.
    const pairs = OPERATION_BURST * 5;
    for (let i = 0; i < pairs; i++) {
      socket.send(subscribe(`f${i}`, "{ __typename }"));
      socket.send(frame({ type: "complete", id: `f${i}` }));
    }
    socket.send(frame({ type: "ping" }));
    expect(await socket.waitFor((m) => m.type === "pong")).toBe(true);
    const refused = Array.from({ length: pairs }, (_, i) => errorsOf(socket, `f${i}`)).flat();
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused)).toEqual(new Set([OPERATIONS_TOO_FAST]));
    expect(errorsOf(socket, "f0")).toEqual([]);
    socket.close();
  });

  test(`${MAX_SOCKETS_PER_SESSION} sockets of one session open, one more is refused; other sessions are not affected`, async () => {
    const sockets: RawSocket[] = [];
    for (let i = 0; i < MAX_SOCKETS_PER_SESSION; i++) sockets.push(await initialised(cookie(), host));
    const refused = await rawSocket(server, { cookie: cookie(), host });
    expect(refused.opened).toBe(false);
    // Another session (another staff member, an anonymous page) still gets its socket.
    const other = await rawSocket(server, { cookie: as.admin.cookie });
    expect(other.opened).toBe(true);
    other.close();

    // A closed tab frees its place; the server learns of the close a moment after the browser.
    const closing = sockets.pop()!;
    closing.close();
    await closing.closed;
    let reopened: RawSocket | null = null;
    for (let attempt = 0; attempt < 50 && !reopened?.opened; attempt++) {
      if (attempt > 0) await Bun.sleep(20);
      reopened = await rawSocket(server, { cookie: cookie(), host });
    }
    expect(reopened?.opened).toBe(true);
    reopened?.close();
    for (const socket of sockets) socket.close();
  });

  test("a frame over 1 MB closes that socket with 1009 (message too big); a new socket serves", async () => {
    const socket = await initialised(cookie(), host);
    socket.send(subscribe("big", `{ ${"x".repeat(MAX_FRAME_BYTES)} }`));
    expect((await socket.closed).code).toBe(1009);
    const next = await initialised(cookie(), host);
    next.send(subscribe("ok", live));
    expect(await answered(next, "ok")).toBe(true);
    expect(errorsOf(next, "ok")).toEqual([]);
    next.close();
  });
});

describe("OperationBudget", () => {
  test("allows a burst, refuses past it, and refills at the steady rate", () => {
    let now = 1_000_000;
    const budget = new OperationBudget(() => now);
    for (let i = 0; i < OPERATION_BURST; i++) expect(budget.take()).toBe(true);
    expect(budget.take()).toBe(false);
    now += 1000;
    for (let i = 0; i < OPERATIONS_PER_SECOND; i++) expect(budget.take()).toBe(true);
    expect(budget.take()).toBe(false);
    now += 3_600_000;
    for (let i = 0; i < OPERATION_BURST; i++) expect(budget.take()).toBe(true);
    expect(budget.take()).toBe(false);
  });
});
