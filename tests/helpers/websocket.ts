import { createClient, type Client } from "graphql-ws";
import type { TestServer } from "./server.ts";

export const GRAPHQL_WS_PROTOCOL = "graphql-transport-ws";

interface SocketOptions {
  cookie?: string;
  /** The host face, e.g. "demo.localhost" (default "localhost"). */
  host?: string;
  /** The page's origin a browser would send; by default the host face's own, null for none (a non-browser client). */
  origin?: string | null;
}

/** The request headers of a socket opened by a page on the host face (browsers send Origin on every upgrade). */
function socketHeaders(server: TestServer, options: SocketOptions): Record<string, string> {
  const host = `${options.host ?? "localhost"}:${server.port}`;
  const headers: Record<string, string> = { Host: host };
  if (options.cookie) headers.Cookie = options.cookie;
  const origin = options.origin === undefined ? `http://${host}` : options.origin;
  if (origin !== null) headers.Origin = origin;
  return headers;
}

/** A WebSocket class that sends the given request headers (Bun's WebSocket accepts them; browsers add cookie and origin themselves). */
function webSocketWithHeaders(headers: Record<string, string>) {
  return class HeaderWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, { protocols, headers } as unknown as string[]);
    }
  };
}

/** A graphql-ws client that sends the given cookie, as a browser on the same origin would. */
export function wsClient(server: TestServer, cookie: string, options: { keepAlive?: number; host?: string; origin?: string | null } = {}): Client {
  return createClient({
    url: `ws://127.0.0.1:${server.port}/api/gql/query`,
    webSocketImpl: webSocketWithHeaders(socketHeaders(server, { ...options, cookie })),
    retryAttempts: 0,
    lazy: true,
    keepAlive: options.keepAlive ?? 0,
  });
}

/** Collects up to `count` results of a subscription. */
export function collect<T>(client: Client, query: string, count: number, variables: Record<string, unknown> = {}) {
  const results: T[] = [];
  const errors: unknown[] = [];
  let resolveDone: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const dispose = client.subscribe<T>(
    { query, variables },
    {
      next: (value) => {
        results.push(value as T);
        if (results.length >= count) resolveDone();
      },
      error: (error) => {
        errors.push(error);
        resolveDone();
      },
      complete: () => resolveDone(),
    },
  );
  return { results, errors, done, dispose };
}

export interface RawSocket {
  /** Every text frame the server sent, parsed where it is JSON. */
  messages: unknown[];
  opened: boolean;
  /** Resolves when the socket has closed, with the server's close code. */
  closed: Promise<{ code: number; reason: string }>;
  send(frame: string | Uint8Array<ArrayBuffer>): void;
  /** Waits for a message matching `match`, or the close; false if it never came within `ms` (a bound, not a timing assertion). */
  waitFor(match: (message: Record<string, unknown>) => boolean, ms?: number): Promise<boolean>;
  close(): void;
}

/**
 * A graphql-transport-ws socket with no client library in between, for sending what a real client
 * never would. Resolves once the socket is open, or has been refused (then `opened` is false).
 */
export async function rawSocket(server: TestServer, options: SocketOptions = {}): Promise<RawSocket> {
  const HeaderWebSocket = webSocketWithHeaders(socketHeaders(server, options));
  const socket = new HeaderWebSocket(`ws://127.0.0.1:${server.port}/api/gql/query`, GRAPHQL_WS_PROTOCOL);
  const messages: unknown[] = [];
  const listeners = new Set<() => void>();
  let isClosed = false;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.addEventListener("close", (event) => {
      isClosed = true;
      resolve({ code: event.code, reason: event.reason });
      for (const listener of listeners) listener();
    });
  });
  socket.addEventListener("message", (event) => {
    const text = typeof event.data === "string" ? event.data : String(event.data);
    try {
      messages.push(JSON.parse(text));
    } catch {
      messages.push(text);
    }
    for (const listener of listeners) listener();
  });
  const opened = await Promise.race([new Promise<boolean>((resolve) => socket.addEventListener("open", () => resolve(true))), closed.then(() => false)]);
  const matches = (match: (message: Record<string, unknown>) => boolean) => messages.some((m) => typeof m === "object" && m !== null && match(m as Record<string, unknown>));
  return {
    messages,
    get opened() {
      return opened;
    },
    closed,
    send: (frame) => socket.send(frame),
    waitFor(match, ms = 5_000) {
      if (matches(match) || isClosed) return Promise.resolve(matches(match));
      return new Promise((resolve) => {
        const finish = () => {
          listeners.delete(check);
          clearTimeout(timer);
          resolve(matches(match));
        };
        const check = () => {
          if (matches(match) || isClosed) finish();
        };
        const timer = setTimeout(finish, ms);
        listeners.add(check);
      });
    },
    close: () => socket.close(),
  };
}
