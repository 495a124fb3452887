import type { ServerWebSocket, WebSocketHandler } from "bun";
import { makeServer } from "graphql-ws";
import type { ExecutionArgs } from "graphql";
import type { Ctx } from "../context.ts";
import { resolveStaffSessionByHash } from "../modules/auth/sessions.ts";
import { markReporterOffline } from "../modules/conversations/presence.ts";
import { reporterSessionAlive } from "../modules/reporting/sessions.ts";
import type { GraphqlServer } from "./yoga.ts";

/** The spec's keep-alive: the server pings every 10 seconds; a client that stops answering is dropped. */
export const KEEP_ALIVE_MS = 10_000;
const PING = JSON.stringify({ type: "ping" });

export interface SocketData {
  ctx: Ctx;
  protocol: string;
  onMessage?: (data: string) => Promise<void>;
  closed?: (code?: number, reason?: string) => Promise<void>;
  keepAlive?: ReturnType<typeof setInterval>;
}

type Enveloped = ReturnType<GraphqlServer["getEnveloped"]>;
type RootValue = { execute: Enveloped["execute"]; subscribe: Enveloped["subscribe"] };

/**
 * graphql-ws over Bun's WebSocket, executing through Yoga's envelop so subscriptions get the
 * same context, limits and error masking as HTTP requests.
 */
export function createWebSocketHandler(yoga: GraphqlServer): WebSocketHandler<SocketData> {
  const server = makeServer<Record<string, unknown> | undefined, { socket: ServerWebSocket<SocketData> }>({
    execute: (args) => (args.rootValue as RootValue).execute(args as ExecutionArgs),
    subscribe: (args) => (args.rootValue as RootValue).subscribe(args as ExecutionArgs),
    onSubscribe: async (ctx, _id, params) => {
      const socketCtx = ctx.extra.socket.data.ctx;
      const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({ ...socketCtx, params });
      const document = parse(params.query);
      const errors = validate(schema, document);
      if (errors.length > 0) return errors;
      const contextValue = await contextFactory();
      return {
        schema,
        operationName: params.operationName ?? null,
        document,
        variableValues: params.variables ?? {},
        contextValue,
        rootValue: { execute, subscribe } satisfies RootValue,
      };
    },
  });

  return {
    open(socket) {
      socket.data.closed = server.opened(
        {
          protocol: socket.data.protocol,
          send: (data) => {
            socket.send(data);
          },
          close: (code, reason) => socket.close(code, reason),
          onMessage: (callback) => {
            socket.data.onMessage = callback;
          },
        },
        { socket },
      );
      socket.data.keepAlive = setInterval(() => void keepAlive(socket), KEEP_ALIVE_MS);
    },
    async message(socket, message) {
      await socket.data.onMessage?.(typeof message === "string" ? message : new TextDecoder().decode(message));
    },
    async close(socket, code, reason) {
      clearInterval(socket.data.keepAlive);
      await socket.data.closed?.(code, reason);
      // A reporter's page has gone: their side of the chat reads Offline (errors are only logged).
      await markReporterOffline(socket.data.ctx);
    },
  };
}

/** Pings, and ends the socket once the session behind it (staff or reporter) has expired or ended. */
async function keepAlive(socket: ServerWebSocket<SocketData>): Promise<void> {
  const { actor, db } = socket.data.ctx;
  const alive =
    actor.kind === "staff"
      ? Boolean(await resolveStaffSessionByHash(db, actor.sessionTokenHash).catch(() => null))
      : actor.kind === "reporter"
        ? await reporterSessionAlive(db, actor.sessionTokenHash).catch(() => false)
        : true;
  if (!alive) {
    socket.close(4401, "Unauthorized");
    return;
  }
  socket.send(PING);
}
