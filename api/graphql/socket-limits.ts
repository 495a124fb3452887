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

/** Open sockets per session, in this process. A place is taken when the upgrade is accepted, before the socket opens, so a burst of upgrades cannot overshoot. */
export class SessionSockets {
  private readonly open = new Map<string, number>();

  take(key: string): boolean {
    const count = this.open.get(key) ?? 0;
    if (count >= MAX_SOCKETS_PER_SESSION) return false;
    this.open.set(key, count + 1);
    return true;
  }

  release(key: string): void {
    const count = (this.open.get(key) ?? 0) - 1;
    if (count > 0) this.open.set(key, count);
    else this.open.delete(key);
  }
}
