import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import type { PgAsyncDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import postgres from "postgres";
import { dirname } from "node:path";
import { lockDataDir, type DataDirLock, type LockOptions } from "./data-dir-lock.ts";
import { pgliteAssets } from "./pglite-assets.ts";
import { MIGRATIONS_FOLDER } from "./migrate.ts";
import { DEFAULT_PREPARED_CLUSTER_DIR, openPglite, preparedClusterIn, type PreparedClusterFiles } from "./prepared-cluster.ts";
import { preparingClient } from "./prepared-statements.ts";
import { relations, type Relations } from "./relations.ts";

/** A drizzle database or transaction over either driver; service code never needs to know which. */
export type Database = PgAsyncDatabase<PgQueryResultHKT, Relations>;

export type DatabaseSettings = { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string; max?: number };

export interface DatabaseHandle {
  kind: "pglite" | "postgres";
  db: Database;
  /** Sends a Postgres NOTIFY; every listener in every process on this database receives it, the sender included. */
  notify(channel: string, payload: string): Promise<void>;
  /** LISTENs on a channel; resolves to a function that stops listening. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** Runs `work` on one dedicated connection (needed for session-level advisory locks). */
  withReservedConnection<T>(work: (db: Database) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** An already created PGlite (tests clone a migrated template into one). */
  pglite?: PGlite;
  /** The migrations the database will be brought to; a prepared cluster is used only if it is a start of them. */
  migrationsFolder?: string;
  /** Where the prepared cluster for a fresh PGlite directory is (decision 026); null never uses one. */
  preparedCluster?: PreparedClusterFiles | null;
  /** Told why a fresh PGlite directory was initialised without the prepared cluster. */
  onSlowInit?: (reason: string) => void;
  /** Waiting for the embedded directory's lock (DATA_DIR, the parent of the PGlite directory): by default none. */
  lock?: LockOptions;
}

export async function openDatabase(settings: DatabaseSettings, options: OpenOptions = {}): Promise<DatabaseHandle> {
  if (settings.kind === "pglite") {
    if (options.pglite) return wrapPglite(options.pglite);
    // Before a single file is read: a second process must never open the directory (decision 067).
    const lock = await lockDataDir(dirname(settings.dataDir), options.lock);
    try {
      const client = await openPglite(settings.dataDir, {
        assets: await pgliteAssets(),
        migrationsFolder: options.migrationsFolder ?? MIGRATIONS_FOLDER,
        cluster: options.preparedCluster === undefined ? preparedClusterIn(DEFAULT_PREPARED_CLUSTER_DIR) : options.preparedCluster,
        ...(options.onSlowInit ? { onSlowInit: options.onSlowInit } : {}),
      });
      return wrapPglite(client, lock);
    } catch (error) {
      lock.release();
      throw error;
    }
  }
  return wrapPostgres(settings.url, settings.max ?? 10);
}

/** `lock` is the directory's, let go once the database is closed (none for a PGlite the caller made). */
export function wrapPglite(client: PGlite, lock: DataDirLock | null = null): DatabaseHandle {
  const db = drizzlePglite({ client, relations }) as unknown as Database;
  let closed = false;
  return {
    kind: "pglite",
    db,
    async notify(channel, payload) {
      await client.query("select pg_notify($1, $2)", [channel, payload]);
    },
    async listen(channel, onPayload) {
      const stop = await client.listen(channel, onPayload);
      return async () => {
        if (!closed) await stop();
      };
    },
    // PGlite is a single connection already.
    withReservedConnection: (work) => work(db),
    async close() {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

function wrapPostgres(url: string, max: number): DatabaseHandle {
  const sql = postgres(url, { max, onnotice: () => {}, connection: { application_name: "lantern" } });
  const db = drizzlePostgres({ client: preparingClient(sql), relations }) as unknown as Database;
  return {
    kind: "postgres",
    db,
    async notify(channel, payload) {
      await sql.notify(channel, payload);
    },
    async listen(channel, onPayload) {
      const request = await sql.listen(channel, onPayload);
      return () => request.unlisten();
    },
    async withReservedConnection(work) {
      // A pool of exactly one connection: session-level locks hold across every statement, and
      // transactions (which a reserved connection of postgres.js cannot begin) still work.
      const single = postgres(url, { max: 1, onnotice: () => {}, connection: { application_name: "lantern-migrate" } });
      try {
        return await work(drizzlePostgres({ client: single, relations }) as unknown as Database);
      } finally {
        await single.end({ timeout: 5 });
      }
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
