import { eq, ne } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { dataKeys, organisations, platformKeys } from "../../db/schema/index.ts";
import { KEY_LIST_TTL_MS, KeyRing, PLATFORM_KEYS, unwrapDataKey, wrapDataKey } from "./key-ring.ts";
import type { MasterKeys } from "./master-key.ts";
import type { BlobStore } from "./blob-store.ts";
import { resealAll, type ResealCounts } from "./reseal.ts";

/**
 * `bun run cli rotate-keys` (docs/decisions/049-encryption-at-rest.md), while the servers keep
 * running:
 * 1. every data key still wrapped by another master key (MASTER_KEY_PREVIOUS) is wrapped again
 *    by the current one, each in its own statement, so a server holding either key keeps working;
 * 2. every organisation, and the platform (decision 062), gets a new data key that starts sealing a little later than every running
 *    instance will have reloaded its key list, so no instance meets a value sealed with a key it
 *    has not loaded. What older keys sealed stays readable with them;
 * 3. once the new keys seal, every value and file under an older key (or still in plain) is sealed
 *    again with its organisation's new key (reseal.ts), so an old key protects nothing any more.
 */

/** Twice the key list's lifetime, with room for clocks that differ by seconds. */
export const KEY_SWITCH_DELAY_MS = 2 * KEY_LIST_TTL_MS + 30_000;

export interface RotationResult {
  rewrapped: number;
  /** One per organisation, and the platform's. */
  newKeys: number;
  /** When the new keys start sealing. */
  activeFrom: Date;
}

function wrappedAgain(masters: MasterKeys, row: { id: string; organisationId: string; masterKeyId: string; wrappedKey: string }) {
  return { masterKeyId: masters.current.id, wrappedKey: wrapDataKey(masters.current, unwrapDataKey(masters, row), row.organisationId) };
}

export async function rotateKeys(db: Database, masters: MasterKeys, options: { switchDelayMs?: number; now?: () => number } = {}): Promise<RotationResult> {
  const ring = new KeyRing(masters, db);
  // Refuses, with the usual one line, a database whose keys open with neither master key.
  await ring.verify();
  let rewrapped = 0;
  for (const row of await db.select().from(dataKeys).where(ne(dataKeys.masterKeyId, masters.current.id))) {
    const updated = await db.update(dataKeys).set(wrappedAgain(masters, row)).where(eq(dataKeys.id, row.id)).returning({ id: dataKeys.id });
    rewrapped += updated.length;
  }
  for (const row of await db.select().from(platformKeys).where(ne(platformKeys.masterKeyId, masters.current.id))) {
    const updated = await db
      .update(platformKeys)
      .set(wrappedAgain(masters, { ...row, organisationId: PLATFORM_KEYS }))
      .where(eq(platformKeys.id, row.id))
      .returning({ id: platformKeys.id });
    rewrapped += updated.length;
  }
  const activeFrom = new Date((options.now?.() ?? Date.now()) + (options.switchDelayMs ?? KEY_SWITCH_DELAY_MS));
  const organisationIds = await db.select({ id: organisations.id }).from(organisations);
  for (const { id } of organisationIds) await ring.createKey(db, id, activeFrom);
  await ring.createKey(db, PLATFORM_KEYS, activeFrom);
  return { rewrapped, newKeys: organisationIds.length + 1, activeFrom };
}

export interface RotationAndReseal extends RotationResult {
  resealed: ResealCounts;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Rotates, waits until the new keys seal (telling `onWait` until when), then reseals everything under older keys. */
export async function rotateAndReseal(
  db: Database,
  masters: MasterKeys,
  store: BlobStore,
  options: { switchDelayMs?: number; onWait?: (until: Date) => void } = {},
): Promise<RotationAndReseal> {
  const rotation = await rotateKeys(db, masters, options);
  options.onWait?.(rotation.activeFrom);
  // The clock is read again each time: waiting is over when the new keys are active, not after a fixed pause.
  while (Date.now() < rotation.activeFrom.getTime()) await sleep(Math.min(1_000, rotation.activeFrom.getTime() - Date.now()));
  // A ring of its own: what this process learnt of the key lists before the rotation is not reused.
  const resealed = await resealAll(db, new KeyRing(masters, db), store, { mode: "rotation" });
  return { ...rotation, resealed };
}
