import { holdingAny, InvalidatedCache } from "./invalidated-cache.ts";
import type { Invalidator } from "./invalidation.ts";

/**
 * Resolved sessions, kept in this process so a signed-in request costs no database query. Looking a
 * session up was most of what a `viewer` request cost (decision 025).
 *
 * A copy is dropped the moment an event says its session or its user changed (invalidation.ts: logout,
 * password change, new email, and whatever later ends or changes an account), and is never served
 * while this instance cannot hear those events. Expiry is checked on every use against the copy's
 * own times. `MAX_AGE_MS` is only a backstop for a change made outside Lantern (an operator's SQL).
 */
export const MAX_AGE_MS = 15_000;
const MAX_ENTRIES = 20_000;

export interface CachedSession<T> {
  value: T;
  /** The staff user behind the session, so all of a user's sessions can be dropped together. */
  userId: string | null;
  lastSeenAt: Date;
  expiresAt: Date;
}

export class SessionCache extends InvalidatedCache<CachedSession<unknown>> {
  constructor(invalidator: Invalidator, options: { now?: () => number } = {}) {
    super(invalidator, {
      maxEntries: MAX_ENTRIES,
      maxAgeMs: MAX_AGE_MS,
      keysNamedBy: (event) => event.tokenHashes,
      endsCopies: (event) => holdingAny(event.userIds, (session: CachedSession<unknown>) => session.userId),
      ...options,
    });
  }

  override get<T>(tokenHash: string): CachedSession<T> | undefined {
    return super.get(tokenHash) as CachedSession<T> | undefined;
  }
}
