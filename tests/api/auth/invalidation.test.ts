import { afterAll, beforeAll, expect, test } from "bun:test";
import type { DatabaseHandle } from "../../../db/client.ts";
import { createInvalidator, HEARTBEAT_MS, type Invalidator } from "../../../api/lib/invalidation.ts";
import { createPubSub, type PubSub } from "../../../api/lib/pubsub.ts";
import { SessionCache, type CachedSession } from "../../../api/lib/session-cache.ts";
import { startTestServer } from "../../helpers/server.ts";
import { cloneTemplate, type TestDatabase } from "../../setup/template.ts";

/**
 * The session cache's rules, over the real event channel of a real database: a copy is served only
 * while this instance hears the channel, only until an event ends it, and never when it was read
 * before such an event; an event sent inside a transaction that rolls back ends nothing.
 */
let database: TestDatabase;
let handle: DatabaseHandle;
let pubsub: PubSub;
let invalidator: Invalidator;
let cache: SessionCache;
let clock = Date.now();

beforeAll(async () => {
  database = await cloneTemplate();
  handle = database.handle;
  pubsub = await createPubSub(handle);
  invalidator = createInvalidator(pubsub, { now: () => clock });
  cache = new SessionCache(invalidator, { now: () => clock });
});
afterAll(async () => {
  await invalidator.close();
  await pubsub.close();
  await database.drop();
});

test("a server starts serving only once it hears the channel, so its first requests use the caches", async () => {
  const server = await startTestServer();
  try {
    expect(server.lantern.services.invalidator.hearing()).toBe(true);
  } finally {
    await server.stop();
  }
});

const session = (userId: string): CachedSession<string> => ({ value: `actor of ${userId}`, userId, lastSeenAt: new Date(clock), expiresAt: new Date(clock + 60_000) });


test("nothing is kept before this instance has heard its own heartbeat, then copies are served", async () => {
  expect(await invalidator.heard(10_000)).toBe(true);
  expect(invalidator.hearing()).toBe(true);
  cache.store("token-a", session("user-1"), cache.mark());
  expect(cache.get<string>("token-a")?.value).toBe("actor of user-1");
});

test("an event ends the copies it names, by token and by user, and the sender learns when every instance has applied it", async () => {
  cache.store("token-a", session("user-1"), cache.mark());
  cache.store("token-b", session("user-1"), cache.mark());
  cache.store("token-c", session("user-2"), cache.mark());
  const done = await handle.db.transaction((tx) => invalidator.announce(tx, { userIds: ["user-1"] }));
  await done();
  expect(cache.get("token-a")).toBeUndefined();
  expect(cache.get("token-b")).toBeUndefined();
  expect(cache.get<string>("token-c")?.value).toBe("actor of user-2");
  const byToken = await handle.db.transaction((tx) => invalidator.announce(tx, { tokenHashes: ["token-c"] }));
  await byToken();
  expect(cache.get("token-c")).toBeUndefined();
});

test("a copy read before an event is not stored after it", async () => {
  const markedAt = cache.mark();
  const done = await handle.db.transaction((tx) => invalidator.announce(tx, { tokenHashes: ["token-d"] }));
  await done();
  cache.store("token-d", session("user-3"), markedAt);
  expect(cache.get("token-d")).toBeUndefined();
});

test("an event inside a transaction that rolls back ends nothing", async () => {
  cache.store("token-e", session("user-4"), cache.mark());
  const epoch = invalidator.epoch();
  await expect(
    handle.db.transaction(async (tx) => {
      await invalidator.announce(tx, { userIds: ["user-4"] });
      throw new Error("rolled back");
    }),
  ).rejects.toThrow("rolled back");
  // A heartbeat round trip later, the rolled-back event has still not arrived.
  const done = await handle.db.transaction((tx) => invalidator.announce(tx, { tokenHashes: ["unrelated"] }));
  await done();
  expect(invalidator.epoch()).toBe(epoch + 1);
  expect(cache.get<string>("token-e")?.value).toBe("actor of user-4");
});

test("an instance that has not heard itself for a while serves no copies and keeps none", async () => {
  cache.store("token-f", session("user-5"), cache.mark());
  clock += 3 * HEARTBEAT_MS;
  expect(invalidator.hearing()).toBe(false);
  expect(cache.get("token-f")).toBeUndefined();
  cache.store("token-g", session("user-6"), cache.mark());
  expect(cache.size).toBe(0);
});
