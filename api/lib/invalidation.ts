import { randomUUID } from "node:crypto";
import type { Database } from "../../db/client.ts";
import { logError } from "./log.ts";
import type { PubSub } from "./pubsub.ts";

/**
 * Ends cached copies of rows (sessions, organisations) on every instance on one Postgres, and says when it has.
 *
 * An event is sent with pg_notify inside the transaction that changes the row, so it goes out at
 * commit and never for a change that rolled back. PostgreSQL hands notifications to every listener
 * in commit order, so an instance that hears its own event has heard every earlier one too, among
 * them the heartbeats of every instance that was already running. The sender then waits until each
 * of those instances answers that it has applied the event; a logout answers only after that, so no
 * instance can still hold the session when the signed-out browser (or anyone with its cookie) asks
 * again. Decision 025 has the reasoning and what happens when an instance cannot hear the channel.
 */
const EVENT_TOPIC = "cache.invalidate";
const ACK_TOPIC = "cache.invalidate.ack";
const HEARTBEAT_TOPIC = "cache.instance";
/** Every instance says it is alive this often; one not heard for `MEMBER_EXPIRY_MS` is gone. */
export const HEARTBEAT_MS = 5_000;
const MEMBER_EXPIRY_MS = 3 * HEARTBEAT_MS;
/** An instance serves from its caches only while it has heard its own heartbeat this recently. */
export const DEAF_AFTER_MS = 2 * HEARTBEAT_MS + 1_000;
/** How long a sender waits for answers: instances that have stopped answering must not hold a logout up. */
export const ACK_TIMEOUT_MS = 2_000;

export interface InvalidationEvent {
  /** Session token hashes whose cached copies end. */
  tokenHashes?: string[];
  /** Every cached session of these users ends (password change, new email, suspension). */
  userIds?: string[];
  /** Cached copies of these organisations end (any change to the row: slug, archive state, settings). */
  organisationIds?: string[];
  /** Cached reporter sessions bound to these submissions end (their sessions were deleted with them). */
  submissionIds?: string[];
}

interface WireEvent extends InvalidationEvent {
  id: string;
}

export interface Invalidator {
  /** Runs `apply` (synchronously) for every event from any instance, this one included. */
  onEvent(apply: (event: InvalidationEvent) => void): () => void;
  /** Inside `tx`: the event is sent when `tx` commits. Await the returned function after the commit. */
  announce(tx: Database, event: InvalidationEvent): Promise<() => Promise<void>>;
  /** True while this instance hears the channel; caches must not serve a copy while it is false. */
  hearing(): boolean;
  /** Resolves once this instance has heard its own first heartbeat, or after `withinMs` if it has not. */
  heard(withinMs: number): Promise<boolean>;
  /** Grows with every event applied here: a copy read before an event must not be stored after it. */
  epoch(): number;
  /** Says this instance is leaving, so no sender waits for its answer, and stops listening. */
  close(): Promise<void>;
}

export function createInvalidator(pubsub: PubSub, options: { now?: () => number } = {}): Invalidator {
  const now = options.now ?? Date.now;
  const instance = randomUUID();
  const members = new Map<string, number>();
  const appliers = new Set<(event: InvalidationEvent) => void>();
  const waiting = new Map<string, { heardOwn: () => void; acks: Set<string>; onAck: () => void }>();
  let heardSelfAt = 0;
  let epoch = 0;
  let firstHeard = () => {};
  const heardFirst = new Promise<void>((resolve) => (firstHeard = resolve));

  const stopHeartbeats = pubsub.subscribe(HEARTBEAT_TOPIC, (payload) => {
    if (typeof payload.instance !== "string") return;
    if (payload.leaving === true) {
      members.delete(payload.instance);
      return;
    }
    members.set(payload.instance, now());
    if (payload.instance === instance) {
      heardSelfAt = now();
      firstHeard();
    }
  });
  const stopEvents = pubsub.subscribe(EVENT_TOPIC, (payload) => {
    const event = parseWireEvent(payload);
    if (!event) return;
    epoch += 1;
    for (const apply of appliers) {
      try {
        apply(event);
      } catch (error) {
        logError("A cache could not apply an invalidation", error);
      }
    }
    waiting.get(event.id)?.heardOwn();
    pubsub.publish(ACK_TOPIC, { id: event.id, instance }).catch((error: unknown) => logError("Could not answer an invalidation", error));
  });
  const stopAcks = pubsub.subscribe(ACK_TOPIC, (payload) => {
    if (typeof payload.id !== "string" || typeof payload.instance !== "string") return;
    const wait = waiting.get(payload.id);
    if (!wait) return;
    wait.acks.add(payload.instance);
    wait.onAck();
  });

  const beat = () => pubsub.publish(HEARTBEAT_TOPIC, { instance }).catch((error: unknown) => logError("Could not send a heartbeat", error));
  void beat();
  const timer = setInterval(beat, HEARTBEAT_MS);
  timer.unref?.();

  async function applied(id: string, heardOwn: Promise<void>, wait: { acks: Set<string>; onAck: () => void }): Promise<void> {
    const deadline = now() + ACK_TIMEOUT_MS;
    try {
      if (!(await withTimeout(heardOwn, ACK_TIMEOUT_MS))) {
        logError("An invalidation did not come back within the time allowed", undefined, { id });
        return;
      }
      // Hearing our own event means every heartbeat committed before it has been heard too.
      const expected = [...members].filter(([, seenAt]) => now() - seenAt <= MEMBER_EXPIRY_MS).map(([member]) => member);
      const allIn = () => expected.every((member) => wait.acks.has(member));
      if (allIn()) return;
      const done = new Promise<void>((resolve) => (wait.onAck = () => allIn() && resolve()));
      if (!(await withTimeout(done, Math.max(0, deadline - now())))) {
        const missing = expected.filter((member) => !wait.acks.has(member)).length;
        logError("Some instances did not confirm an invalidation", undefined, { id, missing });
      }
    } finally {
      waiting.delete(id);
    }
  }

  return {
    onEvent(apply) {
      appliers.add(apply);
      return () => appliers.delete(apply);
    },
    async announce(tx, event) {
      const id = randomUUID();
      let heardOwn = () => {};
      const heard = new Promise<void>((resolve) => (heardOwn = resolve));
      const wait = { heardOwn, acks: new Set<string>(), onAck: () => {} };
      waiting.set(id, wait);
      // A transaction that rolls back sends nothing and its caller never waits: the entry goes anyway.
      const forget = setTimeout(() => waiting.delete(id), 3 * ACK_TIMEOUT_MS);
      forget.unref?.();
      try {
        await pubsub.publishWithin(tx, EVENT_TOPIC, { ...event, id } satisfies WireEvent);
      } catch (error) {
        waiting.delete(id);
        throw error;
      }
      let started: Promise<void> | null = null;
      return () => (started ??= applied(id, heard, wait));
    },
    hearing: () => heardSelfAt > 0 && now() - heardSelfAt <= DEAF_AFTER_MS,
    heard: (withinMs) => withTimeout(heardFirst, withinMs),
    epoch: () => epoch,
    async close() {
      clearInterval(timer);
      await pubsub.publish(HEARTBEAT_TOPIC, { instance, leaving: true }).catch((error: unknown) => logError("Could not say this instance is leaving", error));
      stopHeartbeats();
      stopEvents();
      stopAcks();
      appliers.clear();
      for (const wait of waiting.values()) wait.heardOwn();
      waiting.clear();
    },
  };
}

/**
 * Runs `work` in one transaction that also announces `event`, and resolves once every instance has
 * applied the event: for a change that must be visible everywhere as soon as it answers.
 */
export async function changeEverywhere<T>(db: Database, invalidator: Invalidator, event: InvalidationEvent, work: (tx: Database) => Promise<T>): Promise<T> {
  const { result, applied } = await db.transaction(async (tx) => ({ result: await work(tx), applied: await invalidator.announce(tx, event) }));
  await applied();
  return result;
}

function parseWireEvent(payload: Record<string, unknown>): WireEvent | null {
  if (typeof payload.id !== "string") return null;
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : undefined);
  return {
    id: payload.id,
    tokenHashes: strings(payload.tokenHashes),
    userIds: strings(payload.userIds),
    organisationIds: strings(payload.organisationIds),
    submissionIds: strings(payload.submissionIds),
  };
}

async function withTimeout(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
