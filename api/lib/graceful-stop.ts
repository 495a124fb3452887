import type { Server, ServerWebSocket, WebSocketHandler } from "bun";

/**
 * A server's graceful stop (docs/decisions/056-shutdown-and-crash-safety.md): close every
 * WebSocket with 1012 ("service restart", which graphql-ws clients retry), refuse new requests
 * (503 + Connection: close, then no listener), and let the requests under way finish within a bound.
 */

/** The WebSocket close code for "the server is restarting: come back" (RFC 6455 registry). */
export const SERVICE_RESTART = 1012;

/** Answers a request that arrived after the stop began: a load balancer sends it elsewhere. */
export function stoppingRefusal(): Response {
  return new Response("Lantern is restarting. Please try again.", {
    status: 503,
    headers: { "Content-Type": "text/plain; charset=utf-8", Connection: "close", "Retry-After": "1", "X-Content-Type-Options": "nosniff" },
  });
}

export class GracefulStop {
  #stopping = false;
  #inFlight = 0;
  #idle: (() => void) | null = null;
  #lastArrival = 0;
  readonly #sockets = new Set<ServerWebSocket<unknown>>();
  /** The close handlers still running: they write (a reporter goes offline) before the database closes. */
  readonly #closing = new Set<Promise<unknown>>();

  get stopping(): boolean {
    return this.#stopping;
  }

  /** The request handler, counting what runs and refusing what comes once the stop began. */
  fetch<S>(inner: (request: Request, server: S) => Promise<Response | undefined>) {
    return async (request: Request, server: S): Promise<Response | undefined> => {
      if (this.#stopping) {
        this.#lastArrival = Date.now();
        return stoppingRefusal();
      }
      this.#inFlight += 1;
      try {
        return await inner(request, server);
      } finally {
        this.#inFlight -= 1;
        if (this.#inFlight === 0) this.#idle?.();
      }
    };
  }

  /** The WebSocket handler, knowing its open sockets so the stop can close them. */
  websocket<T>(inner: WebSocketHandler<T>): WebSocketHandler<T> {
    return {
      ...inner,
      open: (socket) => {
        this.#sockets.add(socket as ServerWebSocket<unknown>);
        return inner.open?.(socket);
      },
      close: (socket, code, reason) => {
        this.#sockets.delete(socket as ServerWebSocket<unknown>);
        const closing = Promise.resolve(inner.close?.(socket, code, reason));
        this.#closing.add(closing);
        void closing.finally(() => this.#closing.delete(closing));
        return closing;
      },
    };
  }

  /**
   * Stops the server, its sockets closed with 1012.
   *
   * With `quietMs` (a process stopping on a signal, behind a load balancer) requests under way get
   * `graceMs` to finish, then their connections are cut; meanwhile the listener stays open, answering
   * every new request with 503 + Connection: close, until none has come for `quietMs`: a balancer
   * learns from those answers that the instance is going, and no request already on its way meets a
   * closing listener (a reset, which it could not safely retry). Without it (tests, scripts) every
   * connection closes at once.
   */
  async stop(server: Server<unknown>, graceMs: number, quietMs = 0): Promise<void> {
    this.#stopping = true;
    this.#lastArrival = Date.now();
    const deadline = Date.now() + graceMs;
    for (const socket of this.#sockets) socket.close(SERVICE_RESTART, "Service restart");
    const requestsDone = this.#inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (this.#idle = resolve));
    if (quietMs > 0) {
      await within(requestsDone, deadline);
      while (Date.now() < deadline && Date.now() - this.#lastArrival < quietMs) {
        await Bun.sleep(Math.max(1, Math.min(deadline, this.#lastArrival + quietMs) - Date.now()));
      }
      const inTime = await within(Promise.all([server.stop(false), requestsDone]), deadline);
      if (!inTime) await server.stop(true);
    } else {
      // In-process servers (tests, scripts) are stopped by their owner, who has nothing left under way.
      await server.stop(true);
    }
    // Close handlers write to the database (a reporter goes offline): a moment for them before it closes.
    await within(Promise.allSettled([...this.#closing]), Date.now() + 1_000);
  }
}

/** Whether `work` settled before the deadline (the timer is cleared either way). */
async function within(work: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()))));
  try {
    return await Promise.race([work.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
