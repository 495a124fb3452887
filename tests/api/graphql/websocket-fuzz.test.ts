import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { QUERY_LIMITS } from "../../../api/graphql/yoga.ts";
import { startDemoWithReporter } from "../../helpers/demo.ts";
import type { TestServer } from "../../helpers/server.ts";
import { joinTeam } from "../../helpers/session.ts";
import { rawSocket, type RawSocket } from "../../helpers/websocket.ts";

/**
 * Whatever a socket sends, the server answers that one client (an error message or a close) and
 * goes on serving everyone else: no frame may end the process or surface as an unexpected error.
 */

let server: TestServer;
let submissionId: string;
const identities: { name: string; cookie: string; host: string }[] = [];
const loggedErrors: string[] = [];
const unhandled: unknown[] = [];
const originalConsoleError = console.error;
const recordUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  // The server runs in this process: what it logs as an error, and any rejection nobody handled, is recorded here.
  console.error = (...args: unknown[]) => loggedErrors.push(args.map(String).join(" "));
  process.on("unhandledRejection", recordUnhandled);
  process.on("uncaughtException", recordUnhandled);
  process.env.TEST_LOG_LEVEL = "error";
  let as, reporter;
  ({ server, as, reporter, submissionId } = await startDemoWithReporter());
  delete process.env.TEST_LOG_LEVEL;
  await joinTeam(as.admin, submissionId);
  identities.push({ name: "anonymous", cookie: "", host: "localhost" });
  identities.push({ name: "staff", cookie: as.admin.cookie, host: "localhost" });
  identities.push({ name: "reporter", cookie: reporter.cookie, host: "demo.localhost" });
}, 60_000);

afterAll(async () => {
  process.off("unhandledRejection", recordUnhandled);
  process.off("uncaughtException", recordUnhandled);
  console.error = originalConsoleError;
  await server.stop();
});

type Identity = (typeof identities)[number];
const frame = (value: unknown) => JSON.stringify(value);
const subscribe = (id: string, payload: Record<string, unknown>) => frame({ type: "subscribe", id, payload });
const isType = (type: string, id?: string) => (m: Record<string, unknown>) => m.type === type && (id === undefined || m.id === id);

async function open(identity: Identity): Promise<RawSocket> {
  const socket = await rawSocket(server, { cookie: identity.cookie, host: identity.host });
  expect(socket.opened).toBe(true);
  return socket;
}

async function initialised(identity: Identity): Promise<RawSocket> {
  const socket = await open(identity);
  socket.send(frame({ type: "connection_init" }));
  expect(await socket.waitFor(isType("connection_ack"))).toBe(true);
  return socket;
}

/** Sends the frames, then a ping: the socket has dealt with everything once it closed or answered the pong. */
async function settle(socket: RawSocket, frames: (string | Uint8Array<ArrayBuffer>)[]): Promise<void> {
  for (const item of frames) socket.send(item);
  socket.send(frame({ type: "ping" }));
  await socket.waitFor(isType("pong"));
}

function expectNoServerError(socket: RawSocket, close?: { code: number }) {
  const text = JSON.stringify(socket.messages);
  expect(text).not.toContain("Unexpected error");
  expect(text).not.toContain("INTERNAL_SERVER_ERROR");
  if (close) expect([4500, 1011, 1006]).not.toContain(close.code);
}

const binaryGarbage = Uint8Array.from({ length: 512 }, (_, i) => (i * 131 + 7) % 256);

/** Frames a well-behaved client never sends; each gets a fresh socket, and each must end in a protocol close or be ignored. */
const protocolCases: { name: string; init: boolean; frames: (string | Uint8Array<ArrayBuffer>)[]; closeCode?: number }[] = [
  { name: "binary garbage before init", init: false, frames: [binaryGarbage], closeCode: 4400 },
  { name: "binary garbage after init", init: true, frames: [binaryGarbage], closeCode: 4400 },
  { name: "invalid JSON", init: true, frames: ['{"type":'], closeCode: 4400 },
  { name: "a number", init: true, frames: ["123"], closeCode: 4400 },
  { name: "null", init: true, frames: ["null"], closeCode: 4400 },
  { name: "an array", init: true, frames: ["[]"], closeCode: 4400 },
  { name: "a string", init: true, frames: ['"subscribe"'], closeCode: 4400 },
  { name: "no type", init: true, frames: ["{}"], closeCode: 4400 },
  { name: "a numeric type", init: true, frames: [frame({ type: 42 })], closeCode: 4400 },
  { name: "an unknown type", init: true, frames: [frame({ type: "nope" })], closeCode: 4400 },
  { name: "subscribe without id or payload", init: true, frames: [frame({ type: "subscribe" })], closeCode: 4400 },
  { name: "subscribe with an empty id", init: true, frames: [subscribe("", { query: "{ __typename }" })], closeCode: 4400 },
  { name: "subscribe with a numeric query", init: true, frames: [subscribe("q", { query: 42 })], closeCode: 4400 },
  { name: "subscribe with string variables", init: true, frames: [subscribe("q", { query: "{ __typename }", variables: "x" })], closeCode: 4400 },
  { name: "subscribe with array extensions", init: true, frames: [subscribe("q", { query: "{ __typename }", extensions: [] })], closeCode: 4400 },
  { name: "connection_init with a string payload", init: false, frames: [frame({ type: "connection_init", payload: "x" })], closeCode: 4400 },
  { name: "subscribe before connection_init", init: false, frames: [subscribe("q", { query: "{ __typename }" })], closeCode: 4401 },
  { name: "a second connection_init", init: true, frames: [frame({ type: "connection_init" })], closeCode: 4429 },
  { name: "ping with a string payload", init: true, frames: [frame({ type: "ping", payload: "x" })], closeCode: 4400 },
  { name: "complete without an id", init: true, frames: [frame({ type: "complete" })], closeCode: 4400 },
  { name: "pong nobody asked for", init: true, frames: [frame({ type: "pong" }), frame({ type: "pong", payload: { a: 1 } })] },
  { name: "ping before connection_init", init: false, frames: [frame({ type: "ping" })] },
  { name: "complete for an unknown id", init: true, frames: [frame({ type: "complete", id: "never-subscribed" })] },
];

const nested = (depth: number): string => (depth === 0 ? "name" : `ofType { ${nested(depth - 1)} }`);
const PRESENCE = "subscription ($id: ID) { reportConversation(reportSubmissionID: $id) { otherUserStatus } }";

/** Operations that must be answered with an error for their id (or a result carrying errors), the socket staying usable. */
const operationCases: { name: string; payload: Record<string, unknown>; message: RegExp }[] = [
  { name: "an empty query", payload: { query: "" }, message: /Syntax Error/ },
  { name: "an unparsable query", payload: { query: "{ viewer {" }, message: /Syntax Error/ },
  { name: "a query past the depth limit", payload: { query: `{ __schema { types { fields { type { ${nested(QUERY_LIMITS.maxDepth + 2)} } } } } }` }, message: /depth/i },
  { name: "too many aliases", payload: { query: `{ ${Array.from({ length: QUERY_LIMITS.maxAliases + 5 }, (_, i) => `a${i}: viewer { id }`).join(" ")} }` }, message: /alias/i },
  { name: "an unknown field", payload: { query: "{ viewr { id } }" }, message: /Cannot query field/ },
  { name: "deeply nested selections", payload: { query: `{ ${"a { ".repeat(100_000)}b${" }".repeat(100_001)}` }, message: /more than 5000 tokens/ },
  { name: "a 1 MB query", payload: { query: `{ ${"x".repeat(1_000_000)} }` }, message: /Cannot query field/ },
  { name: "an unknown operation name", payload: { query: "query A { __typename }", operationName: "B" }, message: /operation/i },
  { name: "two anonymous operations", payload: { query: "{ __typename } { __typename }" }, message: /anonymous operation/i },
  { name: "an object where an ID goes", payload: { query: PRESENCE, variables: { id: { nested: true } } }, message: /ID cannot represent/ },
  { name: "a list where an ID goes", payload: { query: PRESENCE, variables: { id: [1, 2] } }, message: /ID cannot represent/ },
  { name: "an unknown enum value", payload: { query: "mutation ($s: PresenceStatus!) { reportConversationUpdateUserStatus(status: $s) }", variables: { s: "Nope" } }, message: /"Nope" does not exist/ },
  { name: "a missing required variable", payload: { query: "mutation ($s: PresenceStatus!) { reportConversationUpdateUserStatus(status: $s) }" }, message: /\$s/ },
  { name: "a subscription to an unknown field", payload: { query: "subscription { nothingHere }" }, message: /Cannot query field/ },
];

const errorsOf = (socket: RawSocket, id: string): string[] =>
  socket.messages.flatMap((m) => {
    const message = m as { id?: string; type?: string; payload?: unknown };
    if (message.id !== id) return [];
    if (message.type === "error") return (message.payload as { message: string }[]).map((e) => e.message);
    if (message.type === "next") return ((message.payload as { errors?: { message: string }[] }).errors ?? []).map((e) => e.message);
    return [];
  });

describe.each(["anonymous", "staff", "reporter"])("a %s socket", (name) => {
  const identity = () => identities.find((i) => i.name === name)!;

  test.each(protocolCases)("$name: the socket is closed with a protocol code or the frame ignored", async ({ init, frames, closeCode }) => {
    const socket = init ? await initialised(identity()) : await open(identity());
    await settle(socket, frames);
    if (closeCode) {
      const close = await socket.closed;
      expect(close.code).toBe(closeCode);
      expectNoServerError(socket, close);
    } else {
      expect(socket.messages).toContainEqual({ type: "pong" });
      expectNoServerError(socket);
      socket.close();
    }
  });

  test.each(operationCases)("$name: answered with an error for that operation only", async ({ payload, message }) => {
    const socket = await initialised(identity());
    socket.send(subscribe("op", payload));
    expect(await socket.waitFor((m) => (m.type === "error" || m.type === "complete") && m.id === "op")).toBe(true);
    expect(errorsOf(socket, "op").some((text) => message.test(text))).toBe(true);
    // The same socket still serves: a valid operation is answered.
    socket.send(subscribe("after", { query: "{ __typename }" }));
    expect(await socket.waitFor(isType("complete", "after"))).toBe(true);
    expect(socket.messages).toContainEqual({ id: "after", type: "next", payload: { data: { __typename: "Query" } } });
    expectNoServerError(socket);
    socket.close();
  });

  // Ids are the client's own text, and the close reason quotes them: a long one must not break the close.
  test.each(["same", "x".repeat(4_000)])("a duplicate of a live subscription's id closes the socket with 4409, nothing else", async (id) => {
    const socket = await initialised(identity());
    const payload = { query: PRESENCE, variables: identity().name === "staff" ? { id: submissionId } : {} };
    socket.send(subscribe(id, payload));
    await socket.waitFor((m) => m.id === id);
    socket.send(subscribe(id, payload));
    await settle(socket, []);
    // An anonymous socket's subscription is refused at once, so its id is free again.
    if (identity().name === "anonymous") {
      expect(errorsOf(socket, id)).toEqual(["You must login to view this page", "You must login to view this page"]);
      socket.close();
    } else {
      const close = await socket.closed;
      expect(close.code).toBe(4409);
      expectNoServerError(socket, close);
    }
  });
});

describe("after the fuzzing", () => {
  test("nothing was logged as an error and no rejection went unhandled", () => {
    expect(unhandled).toEqual([]);
    expect(loggedErrors).toEqual([]);
  });

  test("the server is alive: new staff and reporter sockets subscribe and receive, and HTTP answers", async () => {
    for (const identity of identities.filter((i) => i.name !== "anonymous")) {
      const socket = await initialised(identity);
      socket.send(subscribe("live", { query: PRESENCE, variables: identity.name === "staff" ? { id: submissionId } : {} }));
      expect(await socket.waitFor(isType("next", "live"))).toBe(true);
      expect(socket.messages).toContainEqual({ id: "live", type: "next", payload: { data: { reportConversation: { otherUserStatus: expect.any(String) } } } });
      socket.close();
    }
    const response = await server.fetch("/healthz");
    expect(await response.text()).toBe("ok");
  });
});
