import type { InvalidationEvent, Invalidator } from "./invalidation.ts";

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

interface Entry {
  session: CachedSession<unknown>;
  storedAt: number;
}

export class SessionCache {
  readonly #entries = new Map<string, Entry>();
  readonly #invalidator: Invalidator;
  readonly #now: () => number;

  constructor(invalidator: Invalidator, options: { now?: () => number } = {}) {
    this.#invalidator = invalidator;
    this.#now = options.now ?? Date.now;
    invalidator.onEvent((event) => this.#apply(event));
  }

  /** The copy for this token hash, if there is a current one and this instance hears invalidations. */
  get<T>(tokenHash: string): CachedSession<T> | undefined {
    if (!this.#invalidator.hearing()) {
      this.#entries.clear();
      return undefined;
    }
    const entry = this.#entries.get(tokenHash);
    if (!entry) return undefined;
    if (this.#now() - entry.storedAt > MAX_AGE_MS) {
      this.#entries.delete(tokenHash);
      return undefined;
    }
    return entry.session as CachedSession<T>;
  }

  /** Where a lookup starts: pass it to `store`, so a copy read before an invalidation is not kept. */
  mark(): number {
    return this.#invalidator.epoch();
  }

  store<T>(tokenHash: string, session: CachedSession<T>, markedAt: number): void {
    if (markedAt !== this.#invalidator.epoch() || !this.#invalidator.hearing()) return;
    this.#entries.delete(tokenHash);
    // Map keeps insertion order: the oldest copies go first when the cache is full.
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(tokenHash, { session, storedAt: this.#now() });
  }

  forget(tokenHash: string): void {
    this.#entries.delete(tokenHash);
  }

  get size(): number {
    return this.#entries.size;
  }

  #apply(event: InvalidationEvent): void {
    for (const tokenHash of event.tokenHashes ?? []) this.#entries.delete(tokenHash);
    const userIds = new Set(event.userIds ?? []);
    if (userIds.size === 0) return;
    for (const [tokenHash, entry] of this.#entries) {
      if (entry.session.userId && userIds.has(entry.session.userId)) this.#entries.delete(tokenHash);
    }
  }
}
