import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startDemoWithReporter } from "../../helpers/demo.ts";
import type { ReporterClient } from "../../helpers/reporter.ts";
import type { TestServer } from "../../helpers/server.ts";
import { joinTeam, type DemoStaff } from "../../helpers/session.ts";
import { rawSocket, type RawSocket } from "../../helpers/websocket.ts";

/**
 * A subscription says when it listens: a pong carrying { live: <id> } (decision 056). A page that
 * fetches what it missed once it hears that can miss nothing: whatever is published after the
 * announcement reaches the subscription, and whatever was published before it, the fetch reads.
 */

let server: TestServer;
let as: DemoStaff;
let reporter: ReporterClient;
let submissionId: string;

beforeAll(async () => {
  ({ server, as, reporter, submissionId } = await startDemoWithReporter());
}, 60_000);
afterAll(() => server.stop());

const SEND = `mutation ($text: String!) { reportConversationSendMessage(input: { type: Text, message: $text }) { id } }`;
const MESSAGES = `subscription ($id: ID) { reportConversationMessage(reportSubmissionID: $id) { action message { id } } }`;

const frame = (value: unknown) => JSON.stringify(value);
type Frame = { id?: string; type?: string; payload?: Record<string, unknown> };
const isAnnouncementOf = (id: string) => (m: Frame) => m.type === "pong" && m.payload?.live === id;
const indexOf = (socket: RawSocket, match: (m: Frame) => boolean) => socket.messages.findIndex((m) => typeof m === "object" && m !== null && match(m as Frame));

async function initialised(cookie: string, host: string): Promise<RawSocket> {
  const socket = await rawSocket(server, { cookie, host });
  expect(socket.opened).toBe(true);
  socket.send(frame({ type: "connection_init" }));
  expect(await socket.waitFor((m) => m.type === "connection_ack")).toBe(true);
  return socket;
}

describe("a subscription's announcement that it listens", () => {
  test("comes before its first event, and a message sent the moment it arrives is delivered", async () => {
    const socket = await initialised(as.owner.cookie, "localhost");
    try {
      await joinTeam(as.owner, submissionId);
      socket.send(frame({ type: "subscribe", id: "chat", payload: { query: MESSAGES, variables: { id: submissionId } } }));
      expect(await socket.waitFor(isAnnouncementOf("chat"))).toBe(true);

      const sent = await reporter.gql<{ reportConversationSendMessage: { id: string } }>(SEND, { text: "sent as soon as the console listens" });
      const messageId = sent.data!.reportConversationSendMessage.id;
      const delivered = (m: Frame) => m.id === "chat" && m.type === "next" && JSON.stringify(m.payload).includes(messageId);
      expect(await socket.waitFor(delivered)).toBe(true);
      expect(indexOf(socket, isAnnouncementOf("chat"))).toBeLessThan(indexOf(socket, delivered));
      // Said once per operation, not with every event.
      expect(socket.messages.filter((m) => isAnnouncementOf("chat")(m as Frame))).toHaveLength(1);
    } finally {
      socket.close();
    }
  });

  test("each operation is announced under its own id, on a reporter's socket too", async () => {
    const socket = await initialised(reporter.cookie, "demo.localhost");
    try {
      socket.send(frame({ type: "subscribe", id: "a", payload: { query: MESSAGES } }));
      socket.send(frame({ type: "subscribe", id: "b", payload: { query: "subscription { reportConversationTotalUnreadMessages }" } }));
      expect(await socket.waitFor(isAnnouncementOf("a"))).toBe(true);
      expect(await socket.waitFor(isAnnouncementOf("b"))).toBe(true);
    } finally {
      socket.close();
    }
  });

  test("a refused subscription, one that does not validate and a query are not announced", async () => {
    const socket = await initialised(as.owner.cookie, "localhost");
    try {
      socket.send(frame({ type: "subscribe", id: "refused", payload: { query: MESSAGES, variables: { id: "00000000-0000-4000-8000-000000000000" } } }));
      socket.send(frame({ type: "subscribe", id: "broken", payload: { query: "subscription { nothingHere }" } }));
      socket.send(frame({ type: "subscribe", id: "query", payload: { query: "query { __typename }" } }));
      const settled = (id: string) => (m: Frame) => m.id === id && (m.type === "error" || m.type === "complete");
      for (const id of ["refused", "broken", "query"]) expect(await socket.waitFor(settled(id))).toBe(true);
      expect(socket.messages.filter((m) => (m as Frame).type === "pong")).toEqual([]);
    } finally {
      socket.close();
    }
  });

  test("a client's own pongs and pings carrying announcements, malformed or near the frame limit, change nothing", async () => {
    const socket = await initialised(reporter.cookie, "demo.localhost");
    try {
      socket.send(frame({ type: "pong", payload: { live: "forged" } }));
      socket.send(frame({ type: "pong", payload: { live: "x".repeat(900_000) } }));
      socket.send(frame({ type: "ping", payload: { live: "\u0000" } }));
      // A ping is answered with its payload, as the protocol says: the client's own words back, nothing more.
      expect(await socket.waitFor((m) => m.type === "pong" && (m as Frame).payload?.live === "\u0000")).toBe(true);
      socket.send(frame({ type: "subscribe", id: "after", payload: { query: MESSAGES } }));
      expect(await socket.waitFor(isAnnouncementOf("after"))).toBe(true);
      expect(socket.messages.filter((m) => isAnnouncementOf("forged")(m as Frame))).toEqual([]);
    } finally {
      socket.close();
    }
  });
});
