import type { ServerWebSocket, WebSocketHandler } from "bun";
import { CloseCode, makeServer } from "graphql-ws";
import { getOperationAST, GraphQLError, Kind, OperationTypeNode, type DocumentNode, type ExecutionArgs } from "graphql";
import type { Actor, Ctx } from "../context.ts";
import type { InvalidationEvent, Invalidator } from "../lib/invalidation.ts";
import type { SessionCache } from "../lib/session-cache.ts";
import { resolveStaffSessionByHash } from "../modules/auth/sessions.ts";
import { markReporterOffline } from "../modules/conversations/presence.ts";
import { reporterSessionAlive } from "../modules/reporting/sessions.ts";
import { logError } from "../lib/log.ts";
import { maskError } from "./errors.ts";
import { announcingWhenListening, liveAnnouncement } from "./live-announcement.ts";
import type { GraphqlServer } from "./yoga.ts";
import {
  ANONYMOUS_IDLE_CLOSE,
  type AnonymousSocketBounds,
  MAX_FRAME_BYTES,
  MAX_OPERATIONS_PER_SOCKET,
  OperationBudget,
  OPERATIONS_TOO_FAST,
  type SocketPlaces,
  TOO_MANY_OPERATIONS,
  tooManyRequests,
} from "./socket-limits.ts";

/** The spec's keep-alive: the server pings every 10 seconds; a client that stops answering is dropped. */
export const KEEP_ALIVE_MS = 10_000;
const PING = JSON.stringify({ type: "ping" });

export interface SocketData {
  ctx: Ctx;
  protocol: string;
  /** The session whose place among its sockets this one holds (socket-limits.ts); null: it holds an anonymous place. */
  sessionKey: string | null;
  /** An anonymous socket's watch for idleness, and whether an operation started since it last looked. */
  idleWatch?: ReturnType<typeof setTimeout>;
  operationStarted?: boolean;
  /** How many operations graphql-ws is running on the socket, once it has started one. */
  running?: () => number;
  budget?: OperationBudget;
  onMessage?: (data: string) => Promise<void>;
  closed?: (code?: number, reason?: string) => Promise<void>;
  keepAlive?: ReturnType<typeof setInterval>;
  /** Running `organisationUserDisconnect` subscriptions: operation id → the field's response key. */
  disconnectWatchers?: Map<string, string>;
}

type Enveloped = ReturnType<GraphqlServer["getEnveloped"]>;
type RootValue = { execute: Enveloped["execute"]; subscribe: Enveloped["subscribe"] };

/**
 * graphql-ws over Bun's WebSocket, executing through Yoga's envelop so subscriptions get the
 * same context, limits and error masking as HTTP requests.
 */
export function createWebSocketHandler(yoga: GraphqlServer, places: SocketPlaces, invalidator: Invalidator, anonymous: AnonymousSocketBounds): WebSocketHandler<SocketData> {
  const open = new Set<ServerWebSocket<SocketData>>();
  // A session ended or changed anywhere (logout, reset, password or 2FA change, suspension, a deleted
  // report) is looked at again at once on its sockets, not only at the next keep-alive: running
  // subscriptions stop delivering to a console that has signed out.
  invalidator.onEvent((event) => {
    for (const socket of open) {
      if (touches(event, socket.data.ctx.actor)) setTimeout(() => void closeUnlessCurrent(socket), 0);
    }
  });
  const server = makeServer<Record<string, unknown> | undefined, { socket: ServerWebSocket<SocketData> }>({
    execute: (args) => (args.rootValue as RootValue).execute(args as ExecutionArgs),
    onComplete: (ctx, id) => {
      ctx.extra.socket.data.disconnectWatchers?.delete(id);
    },
    // Told once is enough: a disconnect the event delivered is not repeated when the socket closes.
    onNext: (ctx, id) => {
      ctx.extra.socket.data.disconnectWatchers?.delete(id);
    },
    subscribe: (args) => (args.rootValue as RootValue).subscribe(args as ExecutionArgs),
    // A subscription tells its client once it listens, so a reconnected page's catch-up comes after
    // that moment and nothing published in between is missed (live-announcement.ts).
    onOperation: (ctx, id, _params, _args, result) => {
      if (!isAsyncIterable(result)) return;
      const { socket } = ctx.extra;
      return announcingWhenListening(result, () => {
        if (socket.readyState === WebSocket.OPEN) socket.send(liveAnnouncement(id));
      });
    },
    // graphql-ws runs this outside Yoga's error handling, and what it throws would escape as an
    // unhandled rejection: a query that does not parse, or breaks a limit (graphql-armor throws),
    // must instead become an error message for this one operation.
    onSubscribe: async (ctx, id, params) => {
      // Checked before the query is even parsed: a refused operation costs nothing, and only it is refused.
      const { socket } = ctx.extra;
      const { data } = socket;
      data.operationStarted = true;
      data.running ??= () => Object.keys(ctx.subscriptions).length;
      if (data.budget && !data.budget.take()) return [tooManyRequests(OPERATIONS_TOO_FAST)];
      // A session ended since the socket opened starts nothing more, even before its socket is closed.
      if (!(await closeUnlessCurrent(socket, data.ctx.services.sessionCache))) return [new GraphQLError("Unauthorized", { extensions: { code: "UNAUTHENTICATED" } })];
      // graphql-ws has already entered this operation among the socket's running ones.
      if (Object.keys(ctx.subscriptions).length > MAX_OPERATIONS_PER_SOCKET) return [tooManyRequests(TOO_MANY_OPERATIONS)];
      try {
        const socketCtx = data.ctx;
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({ ...socketCtx, params });
        const document = parse(params.query);
        const errors = validate(schema, document);
        if (errors.length > 0) return errors;
        const watcher = disconnectField(document, params.operationName);
        if (watcher) (data.disconnectWatchers ??= new Map()).set(id, watcher);
        const contextValue = await contextFactory();
        return {
          schema,
          operationName: params.operationName ?? null,
          document,
          variableValues: params.variables ?? {},
          contextValue,
          rootValue: { execute, subscribe } satisfies RootValue,
        };
      } catch (error) {
        return [maskError(error)];
      }
    },
  });

  return {
    // A larger frame closes that socket with 1009 (message too big) before it is read.
    maxPayloadLength: MAX_FRAME_BYTES,
    open(socket) {
      open.add(socket);
      socket.data.budget = new OperationBudget();
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
      if (socket.data.sessionKey === null) closeWhenIdle(socket, anonymous.idleMs);
      socket.data.keepAlive = setInterval(() => {
        keepAlive(socket).catch((error: unknown) => logError("WebSocket keep-alive failed", error));
      }, KEEP_ALIVE_MS);
    },
    // Bun does not catch what these handlers reject with: it would end the process. A failure is this
    // one socket's, so it is logged and that socket alone is closed.
    async message(socket, message) {
      try {
        await socket.data.onMessage?.(typeof message === "string" ? message : new TextDecoder().decode(message));
      } catch (error) {
        logError("WebSocket message failed", error);
        socket.close(CloseCode.InternalServerError, "Internal server error");
      }
    },
    async close(socket, code, reason) {
      open.delete(socket);
      clearInterval(socket.data.keepAlive);
      clearTimeout(socket.data.idleWatch);
      places.release(socket.data.sessionKey);
      try {
        await socket.data.closed?.(code, reason);
        // A reporter's page has gone: their side of the chat reads Offline (errors are only logged).
        await markReporterOffline(socket.data.ctx);
      } catch (error) {
        logError("WebSocket close failed", error);
      }
    },
  };
}

/**
 * Closes an anonymous socket once a whole period passes in which it started no operation and had
 * none running. Pings, pongs and frames that are not operations do not count: they keep nothing
 * open. Without connection_init no operation can start, so such a socket is closed after one period.
 */
function closeWhenIdle(socket: ServerWebSocket<SocketData>, idleMs: number): void {
  socket.data.idleWatch = setTimeout(() => {
    const { data } = socket;
    if (socket.readyState !== WebSocket.OPEN) return;
    if (data.operationStarted || (data.running?.() ?? 0) > 0) {
      data.operationStarted = false;
      closeWhenIdle(socket, idleMs);
      return;
    }
    socket.close(ANONYMOUS_IDLE_CLOSE.code, ANONYMOUS_IDLE_CLOSE.reason);
  }, idleMs);
}

/** Pings, and ends the socket once the session behind it (staff or reporter) has expired or ended. */
async function keepAlive(socket: ServerWebSocket<SocketData>): Promise<void> {
  // Read from the database, not the session cache: the backstop for changes made outside Lantern.
  if (await closeUnlessCurrent(socket)) socket.send(PING);
}

/**
 * Whether the session behind the socket still resolves to what it was when the socket opened; if
 * not, the socket is closed (4401: the pages sign in again). A staff session that now owes a
 * two-factor step (2FA just turned on) or has just passed it counts as changed: a reconnect gets the
 * session as it is now.
 */
async function closeUnlessCurrent(socket: ServerWebSocket<SocketData>, cache?: SessionCache): Promise<boolean> {
  const { actor, db } = socket.data.ctx;
  let state: "current" | "changed" | "gone" = "current";
  if (actor.kind === "staff" || actor.kind === "two-factor-pending") {
    const now = await resolveStaffSessionByHash(db, actor.sessionTokenHash, new Date(), cache).catch(() => null);
    state = !now ? "gone" : now.kind === actor.kind ? "current" : "changed";
  } else if (actor.kind === "reporter") {
    state = (await reporterSessionAlive(db, actor.sessionTokenHash).catch(() => false)) ? "current" : "gone";
  }
  if (state !== "current" && socket.readyState === WebSocket.OPEN) {
    // A console whose session has ended learns it first, as its disconnect subscription would have
    // told it (the event may reach this instance after the socket is gone). One whose session only
    // changed (a two-factor step now owed or passed) is not told it is signed out: it reconnects.
    if (state === "gone") {
      for (const [id, key] of socket.data.disconnectWatchers ?? []) socket.send(JSON.stringify({ id, type: "next", payload: { data: { [key]: true } } }));
    }
    socket.close(4401, "Unauthorized");
  }
  return state === "current";
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && Symbol.asyncIterator in value;
}

/** Whether an invalidation event may concern the session behind a socket. */
function touches(event: InvalidationEvent, actor: Actor): boolean {
  if (actor.kind === "staff" || actor.kind === "two-factor-pending") {
    return Boolean(event.tokenHashes?.includes(actor.sessionTokenHash) || event.userIds?.includes(actor.userId));
  }
  if (actor.kind === "reporter") {
    return Boolean(event.tokenHashes?.includes(actor.sessionTokenHash) || (actor.submissionId && event.submissionIds?.includes(actor.submissionId)));
  }
  return false;
}

/** The response key of `organisationUserDisconnect` when the operation is a subscription to it. */
function disconnectField(document: DocumentNode, operationName: string | null | undefined): string | null {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== OperationTypeNode.SUBSCRIPTION) return null;
  const [field] = operation.selectionSet.selections;
  return field?.kind === Kind.FIELD && field.name.value === "organisationUserDisconnect" ? (field.alias?.value ?? field.name.value) : null;
}
