import { count, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reportListVersions, reportSubmissions } from "../../../db/schema/index.ts";

/**
 * The report list's total, exact and cheap (decision 022). Counting 95,000 matching reports costs
 * tens of milliseconds however it is indexed, too much for every page view. But a count can only
 * change when something it depends on changes, and every such change adds 1 to its organisation's
 * list version in the writing transaction (the triggers of migration report_list_versions). So a
 * count is kept with the version it was counted at, and reused for a page whose own statement saw
 * that same version: both snapshots then hold the same reports, and the total is the one a fresh
 * count would give.
 */

/** The organisation's list version, as one statement sees it (a sum over the writers' shards). */
export const listVersion = (organisationId: string) =>
  sql<string>`(select coalesce(sum(${reportListVersions.version}), 0)::text from ${reportListVersions} where ${reportListVersions.organisationId} = ${organisationId})`;

interface KnownCount {
  version: bigint;
  total: number;
}

const MAX_COUNTS_KEPT = 500;
const knownByDatabase = new WeakMap<Database, Map<string, KnownCount>>();
const runningByDatabase = new WeakMap<Database, Map<string, Promise<KnownCount>>>();

function mapOf<T>(maps: WeakMap<Database, Map<string, T>>, db: Database): Map<string, T> {
  let map = maps.get(db);
  if (!map) maps.set(db, (map = new Map()));
  return map;
}

function remember(db: Database, key: string, counted: KnownCount): void {
  const known = mapOf(knownByDatabase, db);
  const previous = known.get(key);
  // Two counts may finish out of order: the newer snapshot's stays.
  if (previous && previous.version > counted.version) return;
  // Re-inserted, so the least recently counted entries are the first evicted.
  known.delete(key);
  known.set(key, counted);
  if (known.size > MAX_COUNTS_KEPT) known.delete(known.keys().next().value!);
}

/** Identical counts asked for at the same time share one statement. */
function countOnce(db: Database, key: string, query: PromiseLike<{ total: number; version: string }[]>): Promise<KnownCount> {
  const running = mapOf(runningByDatabase, db);
  const pending = running.get(key);
  if (pending) return pending;
  const started = Promise.resolve(query).then(([row]) => ({ total: row?.total ?? 0, version: BigInt(row?.version ?? 0) }));
  running.set(key, started);
  const settle = () => void (running.get(key) === started && running.delete(key));
  started.then((counted) => {
    settle();
    remember(db, key, counted);
  }, settle);
  return started;
}

/**
 * How many reports match `where`, all of them in `organisationId`. `seenVersion` is the version
 * the page's own statement saw (null when it returned no rows): a count kept at that version is
 * reused; otherwise the reports are counted, together with the version, in one statement.
 */
export async function organisationCount(db: Database, where: SQL, organisationId: string, seenVersion: string | null): Promise<number> {
  const query = db.select({ total: count(), version: listVersion(organisationId) }).from(reportSubmissions).where(where);
  const { sql: text, params } = query.toSQL();
  const key = `${text}\n${JSON.stringify(params)}`;
  const seen = seenVersion === null ? null : BigInt(seenVersion);
  const known = mapOf(knownByDatabase, db).get(key);
  if (known && known.version === seen) return known.total;
  const counted = await countOnce(db, key, query);
  // A shared count that began before the change this page already sees is counted again, once.
  if (seen !== null && counted.version < seen) return (await countOnce(db, key, query)).total;
  return counted.total;
}

/** A count across organisations (a super admin's or a member's whole list): always counted. */
export async function plainCount(db: Database, where: SQL): Promise<number> {
  const [row] = await db.select({ total: count() }).from(reportSubmissions).where(where);
  return row?.total ?? 0;
}
