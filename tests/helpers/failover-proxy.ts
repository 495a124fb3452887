import type { Server, ServerWebSocket } from "bun";

/**
 * A load balancer reduced to what a rolling restart needs: one loopback address in front of several
 * instances. A request goes to the next instance, on a connection of its own; one refused (no
 * listener, or a 503 + Connection: close from an instance that is stopping) goes to the next one,
 * and the refusing instance is left out for a while, as a balancer's retry and passive health check do.
 * A request an instance accepted and then dropped is not retried: the client sees 502. WebSockets
 * are piped to one instance, and closed with that instance's close code when it closes them.
 */

export interface FailoverProxy {
  port: number;
  origin: string;
  /** Answers 502 the proxy gave because an instance dropped a request (should stay 0). */
  readonly dropped: number;
  stop(): Promise<void>;
}

interface ProxySocket {
  headers: Record<string, string>;
  protocol: string;
  upstream?: WebSocket;
  /** Frames from the client before the instance's socket was open. */
  pending: string[];
}

const HOP_HEADERS = ["connection", "keep-alive", "upgrade", "transfer-encoding", "content-length", "host"];
const REFUSED = new Set(["ECONNREFUSED", "ConnectionRefused"]);
const TRIES = 50;

/** After a refusal an instance is left out this long, as a balancer's passive health check does. */
const LEFT_OUT_MS = 2_000;

export interface FailoverProxyOptions {
  /** Changes each answer's headers on the way to the client (to stand for a browser that treats them otherwise). */
  rewriteHeaders?: (headers: Headers) => void;
}

export function failoverProxy(upstreamPorts: number[], options: FailoverProxyOptions = {}): FailoverProxy {
  let next = 0;
  let dropped = 0;
  const leftOutUntil = new Map<number, number>();
  const leaveOut = (port: number) => leftOutUntil.set(port, Date.now() + LEFT_OUT_MS);
  // The next instance not left out; if all are, the next one anyway (one may be back by now).
  const pick = () => {
    for (let tried = 0; tried < upstreamPorts.length; tried += 1) {
      const port = upstreamPorts[next++ % upstreamPorts.length]!;
      if ((leftOutUntil.get(port) ?? 0) <= Date.now()) return port;
    }
    return upstreamPorts[next++ % upstreamPorts.length]!;
  };

  async function forward(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
    const headers = new Headers(request.headers);
    for (const name of HOP_HEADERS) if (name !== "host") headers.delete(name);
    for (let attempt = 0; attempt < TRIES; attempt += 1) {
      const port = pick();
      try {
        // A connection per request: an idle pooled connection that the stopping instance closes just
        // as a request is written on it could not be told from a request the instance dropped.
        const response = await fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, { method: request.method, headers, body, redirect: "manual", keepalive: false });
        if (response.status === 503 && response.headers.get("connection") === "close") {
          leaveOut(port);
          await response.arrayBuffer();
          continue;
        }
        const out = new Headers(response.headers);
        for (const name of HOP_HEADERS) out.delete(name);
        // fetch has already decompressed the body it hands on.
        out.delete("content-encoding");
        options.rewriteHeaders?.(out);
        return new Response(await response.arrayBuffer(), { status: response.status, headers: out });
      } catch (error) {
        if (REFUSED.has((error as { code?: string }).code ?? "")) {
          leaveOut(port);
          // Both instances may be between stop and start for a moment: a short pause, then the next.
          if (attempt % upstreamPorts.length === upstreamPorts.length - 1) await Bun.sleep(50);
          continue;
        }
        dropped += 1;
        return new Response(`dropped: ${String(error)}`, { status: 502 });
      }
    }
    dropped += 1;
    return new Response("no instance is up", { status: 502 });
  }

  function openUpstream(socket: ServerWebSocket<ProxySocket>, attempt = 0): void {
    const port = pick();
    const upstream = new WebSocket(`ws://127.0.0.1:${port}/api/gql/query`, { protocols: [socket.data.protocol], headers: socket.data.headers } as unknown as string[]);
    let opened = false;
    upstream.addEventListener("open", () => {
      opened = true;
      socket.data.upstream = upstream;
      for (const frame of socket.data.pending.splice(0)) upstream.send(frame);
    });
    upstream.addEventListener("message", (event) => socket.send(event.data as string));
    upstream.addEventListener("close", (event) => {
      if (!opened && attempt < TRIES) {
        leaveOut(port);
        return void setTimeout(() => openUpstream(socket, attempt + 1), 20);
      }
      // The instance's own close code (1012 on a restart) goes on to the client.
      socket.close(event.code === 1005 || event.code === 1006 ? 1011 : event.code, event.reason);
    });
  }

  const server: Server<ProxySocket> = Bun.serve<ProxySocket>({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request, srv) {
      if (request.headers.get("upgrade")?.toLowerCase() === "websocket") {
        const headers: Record<string, string> = {};
        for (const name of ["host", "cookie", "origin"]) {
          const value = request.headers.get(name);
          if (value) headers[name === "host" ? "Host" : name === "cookie" ? "Cookie" : "Origin"] = value;
        }
        const protocol = request.headers.get("sec-websocket-protocol") ?? "";
        return srv.upgrade(request, { data: { headers, protocol, pending: [] }, headers: protocol ? { "Sec-WebSocket-Protocol": protocol } : {} }) ? undefined : new Response("upgrade failed", { status: 400 });
      }
      return forward(request);
    },
    websocket: {
      open: (socket) => openUpstream(socket),
      message(socket, message) {
        const text = typeof message === "string" ? message : new TextDecoder().decode(message);
        if (socket.data.upstream?.readyState === WebSocket.OPEN) socket.data.upstream.send(text);
        else socket.data.pending.push(text);
      },
      close(socket) {
        socket.data.upstream?.close();
      },
    },
  });
  return {
    port: server.port!,
    origin: `http://127.0.0.1:${server.port}`,
    get dropped() {
      return dropped;
    },
    stop: () => server.stop(true),
  };
}
