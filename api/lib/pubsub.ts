import { sql } from "drizzle-orm";
import type { Database, DatabaseHandle } from "../../db/client.ts";
import { logError } from "./log.ts";

/**
 * Events between instances travel over Postgres LISTEN/NOTIFY on one channel. Payloads carry ids,
 * never documents (NOTIFY is limited to ~8 KB). The sender receives its own NOTIFY, so events are
 * delivered locally only through that path, never dispatched twice.
 */
const CHANNEL = "lantern_events";

export interface LanternEvent {
  topic: string;
  payload: Record<string, unknown>;
}

type Listener = (payload: Record<string, unknown>) => void;
type PrefixListener = (topic: string, payload: Record<string, unknown>) => void;

export interface PubSub {
  publish(topic: string, payload: Record<string, unknown>): Promise<void>;
  /** Sends the event as part of `tx`: PostgreSQL delivers it when `tx` commits, and never if it rolls back. */
  publishWithin(tx: Database, topic: string, payload: Record<string, unknown>): Promise<void>;
  subscribe(topic: string, listener: Listener): () => void;
  /**
   * Every topic that starts with `prefix` (topics are per organisation or per report, so a
   * process-wide consumer such as the mail notifier cannot name them in advance).
   */
  subscribePrefix(prefix: string, listener: PrefixListener): () => void;
  /** How many listeners this process holds for a topic (live subscriptions waiting on it). */
  listenerCount(topic: string): number;
  /** An async iterator over a topic, for GraphQL subscriptions; ends when the consumer returns. */
  iterate(topic: string): AsyncIterableIterator<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function createPubSub(database: DatabaseHandle): Promise<PubSub> {
  const listeners = new Map<string, Set<Listener>>();
  const prefixListeners = new Set<{ prefix: string; listener: PrefixListener }>();
  const stop = await database.listen(CHANNEL, (raw) => {
    let event: LanternEvent;
    try {
      event = JSON.parse(raw) as LanternEvent;
    } catch (error) {
      logError("Ignored a malformed event", error);
      return;
    }
    for (const listener of listeners.get(event.topic) ?? []) listener(event.payload);
    for (const entry of prefixListeners) {
      if (!event.topic.startsWith(entry.prefix)) continue;
      // One failing consumer must not keep the event from the others.
      try {
        entry.listener(event.topic, event.payload);
      } catch (error) {
        logError("An event listener failed", error, { prefix: entry.prefix });
      }
    }
  });

  const subscribe = (topic: string, listener: Listener) => {
    const set = listeners.get(topic) ?? new Set<Listener>();
    set.add(listener);
    listeners.set(topic, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) listeners.delete(topic);
    };
  };

  return {
    async publish(topic, payload) {
      await database.notify(CHANNEL, JSON.stringify({ topic, payload } satisfies LanternEvent));
    },
    async publishWithin(tx, topic, payload) {
      await tx.execute(sql`select pg_notify(${CHANNEL}, ${JSON.stringify({ topic, payload } satisfies LanternEvent)})`);
    },
    subscribe,
    listenerCount: (topic) => listeners.get(topic)?.size ?? 0,
    subscribePrefix(prefix, listener) {
      const entry = { prefix, listener };
      prefixListeners.add(entry);
      return () => {
        prefixListeners.delete(entry);
      };
    },
    iterate(topic) {
      const queue: Record<string, unknown>[] = [];
      let wake: (() => void) | null = null;
      let done = false;
      const unsubscribe = subscribe(topic, (payload) => {
        queue.push(payload);
        wake?.();
      });
      const finish = () => {
        done = true;
        unsubscribe();
        wake?.();
      };
      const iterator: AsyncIterableIterator<Record<string, unknown>> = {
        async next() {
          while (!done && queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
          if (done) return { done: true, value: undefined };
          return { done: false, value: queue.shift()! };
        },
        async return() {
          finish();
          return { done: true, value: undefined };
        },
        [Symbol.asyncIterator]() {
          return iterator;
        },
      };
      return iterator;
    },
    async close() {
      listeners.clear();
      prefixListeners.clear();
      await stop();
    },
  };
}
