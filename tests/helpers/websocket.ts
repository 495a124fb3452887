import { createClient, type Client } from "graphql-ws";
import type { TestServer } from "./server.ts";

/** A graphql-ws client that sends the given cookie, as a browser on the same origin would. */
export function wsClient(server: TestServer, cookie: string, options: { keepAlive?: number; host?: string } = {}): Client {
  const headers: Record<string, string> = { Host: `${options.host ?? "localhost"}:${server.port}` };
  if (cookie) headers.Cookie = cookie;
  class CookieWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      // Bun's WebSocket accepts request headers; browsers send the cookie by themselves.
      super(url, { protocols, headers } as unknown as string[]);
    }
  }
  return createClient({
    url: `ws://127.0.0.1:${server.port}/api/gql/query`,
    webSocketImpl: CookieWebSocket,
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
