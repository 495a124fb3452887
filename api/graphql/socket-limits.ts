import { GraphQLError } from "graphql";
import type { Actor } from "../context.ts";

/**
 * What one WebSocket, and one session's sockets together, may hold (docs/decisions/019-input-bounds.md).
 * The busiest real page, the console's report detail inside the shell, runs five subscriptions at
 * once, and the reporter's follow-up area three; the bounds leave a wide margin above both.
 */

/** Operations running at once on one socket (subscriptions, and queries while they run). */
export const MAX_OPERATIONS_PER_SOCKET = 50;
/** Open sockets per staff or reporter session: one per open tab, so twenty tabs. */
export const MAX_SOCKETS_PER_SESSION = 20;
/** New operations one socket may start in a burst (a reconnect re-subscribes everything at once)… */
export const OPERATION_BURST = 100;
/** …and for as long as it keeps going: page changes start a handful each. */
export const OPERATIONS_PER_SECOND = 20;
/** One frame at most, as an HTTP JSON body (api/app.ts): Bun would otherwise take 16 MB. */
export const MAX_FRAME_BYTES = 1024 * 1024;

/**
 * Sockets without a session (docs/decisions/063-anonymous-sockets.md). No page opens one on purpose:
 * every subscription needs a session, so an anonymous socket is a page whose session has just ended
 * learning so, or nobody's. Together they are capped per process, and each is closed once it has run
 * nothing for a while, so one client cannot hold the process's file descriptors.
 */
export interface AnonymousSocketBounds {
  /** Anonymous sockets this process holds at once; past it the upgrade is refused with 503. */
  maxSockets: number;
  /** An anonymous socket that starts no operation and has none running for this long is closed. */
  idleMs: number;
}

export const ANONYMOUS_SOCKET_BOUNDS: AnonymousSocketBounds = { maxSockets: 256, idleMs: 5_000 };

/** Tests may tighten the bounds to reach them quickly; nothing can loosen them. */
export function anonymousSocketBounds(tighter: Partial<AnonymousSocketBounds> = {}): AnonymousSocketBounds {
  return {
    maxSockets: Math.min(ANONYMOUS_SOCKET_BOUNDS.maxSockets, tighter.maxSockets ?? Infinity),
    idleMs: Math.min(ANONYMOUS_SOCKET_BOUNDS.idleMs, tighter.idleMs ?? Infinity),
  };
}

/** 1000: the page's client reconnects only if it still wants something, with its own backoff. */
export const ANONYMOUS_IDLE_CLOSE = { code: 1000, reason: "Closed: not signed in and nothing running" } as const;
export const TOO_MANY_ANONYMOUS_SOCKETS = "Too many connections without a sign-in are open on this server. Sign in, or try again in a moment.";
/** How long a refused anonymous upgrade is told to wait; graphql-ws clients back off on their own as well. */
export const ANONYMOUS_RETRY_AFTER_SECONDS = 5;

export const TOO_MANY_OPERATIONS = `Too many live updates are open on this connection (at most ${MAX_OPERATIONS_PER_SOCKET}). Close some of them and try again.`;
export const OPERATIONS_TOO_FAST = "Too many requests on this connection. Wait a moment and try again.";
export const TOO_MANY_SOCKETS = `Too many connections are open for this session (at most ${MAX_SOCKETS_PER_SESSION}). Close some Lantern tabs and try again.`;

export const tooManyRequests = (message: string) => new GraphQLError(message, { extensions: { code: "TOO_MANY_REQUESTS" } });

/**
 * A token bucket for one socket's new operations: a full bucket allows a burst, then it refills at a
 * steady rate. The clock is a parameter so the refill can be checked without waiting.
 */
export class OperationBudget {
  private tokens = OPERATION_BURST;
  private last: number;

  constructor(private readonly now: () => number = Date.now) {
    this.last = now();
  }

  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(OPERATION_BURST, this.tokens + ((now - this.last) / 1000) * OPERATIONS_PER_SECOND);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** The session a socket belongs to; anonymous sockets have none (and no reporter's address is ever kept to count them by). */
export function sessionKeyOf(actor: Actor): string | null {
  if (actor.kind === "staff" || actor.kind === "two-factor-pending") return `staff:${actor.sessionTokenHash}`;
  return actor.kind === "reporter" ? `reporter:${actor.sessionTokenHash}` : null;
}

/**
 * Open sockets per session, and anonymous ones together, in this process. A place is taken when the
 * upgrade is accepted, before the socket opens, so a burst of upgrades cannot overshoot.
 */
export class SocketPlaces {
  private readonly open = new Map<string, number>();
  private anonymous = 0;

  constructor(private readonly maxAnonymous: number) {}

  /** A place for a socket of this session, or an anonymous one (null). */
  take(sessionKey: string | null): boolean {
    if (sessionKey === null) {
      if (this.anonymous >= this.maxAnonymous) return false;
      this.anonymous += 1;
      return true;
    }
    const count = this.open.get(sessionKey) ?? 0;
    if (count >= MAX_SOCKETS_PER_SESSION) return false;
    this.open.set(sessionKey, count + 1);
    return true;
  }

  release(sessionKey: string | null): void {
    if (sessionKey === null) {
      this.anonymous = Math.max(0, this.anonymous - 1);
      return;
    }
    const count = (this.open.get(sessionKey) ?? 0) - 1;
    if (count > 0) this.open.set(sessionKey, count);
    else this.open.delete(sessionKey);
  }
}
