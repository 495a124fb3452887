import type { InvalidationEvent, Invalidator } from "./invalidation.ts";

/**
 * Copies of rows kept in this process, which an invalidation event (invalidation.ts) ends on every
 * instance. The rules every such cache keeps (decision 025):
 *
 * - no copy is served, and none is kept, while this instance cannot hear the events;
 * - a copy read before an event is not stored after it (`mark` before the read, `store` after);
 * - a copy older than `maxAgeMs` is read again: a backstop for a change made outside Lantern;
 * - at most `maxEntries` copies, the oldest go first. Only rows that exist are stored, so what a
 *   stranger can make it hold is bounded by what the database holds.
 */
export interface CacheRules<V> {
  maxEntries: number;
  maxAgeMs: number;
  /** The keys an event names directly. */
  keysNamedBy?: (event: InvalidationEvent) => readonly string[] | undefined;
  /** For an event, which further copies it ends (by what they hold); null when it ends none that way. */
  endsCopies?: (event: InvalidationEvent) => ((value: V) => boolean) | null;
  now?: () => number;
}

interface Entry<V> {
  value: V;
  storedAt: number;
}

export class InvalidatedCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  readonly #invalidator: Invalidator;
  readonly #rules: CacheRules<V>;
  readonly #now: () => number;
  /** Grows with every local `forgetWhere`, which ends copies as an event would. */
  #localEpoch = 0;

  constructor(invalidator: Invalidator, rules: CacheRules<V>) {
    this.#invalidator = invalidator;
    this.#rules = rules;
    this.#now = rules.now ?? Date.now;
    invalidator.onEvent((event) => this.#apply(event));
  }

  /** The copy for this key, if there is a current one and this instance hears invalidations. */
  get(key: string): V | undefined {
    if (!this.#invalidator.hearing()) {
      this.#entries.clear();
      return undefined;
    }
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (this.#now() - entry.storedAt > this.#rules.maxAgeMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Where a lookup starts: pass it to `store`, so a copy read before an invalidation is not kept. */
  mark(): number {
    // Both counters only grow, so their sum changes whenever either does.
    return this.#invalidator.epoch() + this.#localEpoch;
  }

  store(key: string, value: V, markedAt: number): void {
    if (markedAt !== this.mark() || !this.#invalidator.hearing()) return;
    this.#entries.delete(key);
    // Map keeps insertion order: the oldest copies go first when the cache is full.
    if (this.#entries.size >= this.#rules.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { value, storedAt: this.#now() });
  }

  forget(key: string): void {
    this.#entries.delete(key);
  }

  /** Ends, in this process only, every copy `ends` picks; a lookup under way when it runs stores nothing. */
  forgetWhere(ends: (value: V) => boolean): void {
    this.#localEpoch += 1;
    for (const [key, entry] of this.#entries) if (ends(entry.value)) this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }

  #apply(event: InvalidationEvent): void {
    for (const key of this.#rules.keysNamedBy?.(event) ?? []) this.#entries.delete(key);
    const ends = this.#rules.endsCopies?.(event);
    if (!ends) return;
    for (const [key, entry] of this.#entries) if (ends(entry.value)) this.#entries.delete(key);
  }
}

/** A matcher for `endsCopies`: the copies whose `field` is one of `ids`; null when there are none. */
export function holdingAny<V>(ids: readonly string[] | undefined, field: (value: V) => string | null): ((value: V) => boolean) | null {
  if (!ids || ids.length === 0) return null;
  const named = new Set(ids);
  return (value) => {
    const id = field(value);
    return id !== null && named.has(id);
  };
}
