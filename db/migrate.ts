import { sql } from "drizzle-orm";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { fileURLToPath } from "node:url";
import type { Database, DatabaseHandle } from "./client.ts";
import { ROLE_DEFINITIONS } from "../api/shared/roles.ts";
import { roles } from "./schema/index.ts";

/** Arbitrary but fixed: every Lantern instance takes this lock before touching the schema. */
const MIGRATION_LOCK_KEY = 0x4c616e74; // "Lant"

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../db/migrations", import.meta.url));

/**
 * How long the migration waits for a table lock before it gives way. Old instances keep serving
 * during a rolling upgrade (decision 057): a migration that waited on their statements while
 * holding the locks it took earlier would make them wait behind it, or deadlock with them and have
 * one of their requests fail. Giving way within this bound ends such a standoff from the
 * migration's side; its transaction rolls back whole and is tried again.
 */
const MIGRATION_LOCK_TIMEOUT = "200ms";
const MIGRATION_ATTEMPTS = 25;
/** lock_not_available (the lock timeout) and deadlock_detected. */
const GAVE_WAY = new Set(["55P03", "40P01"]);

function gaveWay(error: unknown): boolean {
  for (let current = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause) {
    if (GAVE_WAY.has(String((current as { code?: unknown }).code))) return true;
  }
  return false;
}

/**
 * Applies pending migrations and the reference data every database needs (the five roles).
 * Drizzle's migrator takes no lock, so concurrent instances would race on an empty database:
 * a session-level advisory lock on one reserved connection serialises them.
 */
export async function migrateDatabase(handle: DatabaseHandle, migrationsFolder = MIGRATIONS_FOLDER): Promise<void> {
  await handle.withReservedConnection(async (db) => {
    await db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    try {
      const config = { migrationsFolder, migrationsSchema: "public", migrationsTable: "__lantern_migrations" };
      await db.execute(sql.raw(`set lock_timeout = '${MIGRATION_LOCK_TIMEOUT}'`));
      for (let attempt = 1; ; attempt += 1) {
        try {
          // Both migrators run the same SQL, all pending migrations in one transaction; they differ only in the driver type they accept.
          if (handle.kind === "pglite") await migratePglite(db as never, config);
          else await migratePostgres(db as never, config);
          break;
        } catch (error) {
          if (!gaveWay(error) || attempt === MIGRATION_ATTEMPTS) throw error;
          // Let the statements it gave way to finish before trying again.
          await Bun.sleep(100 + Math.floor(Math.random() * 400));
        }
      }
      await ensureRoles(db);
    } finally {
      // The reserved connection goes back to the pool: its other users wait for locks as usual.
      await db.execute(sql`reset lock_timeout`);
      await db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
    }
  });
}

async function ensureRoles(db: Database): Promise<void> {
  for (const role of ROLE_DEFINITIONS) {
    await db
      .insert(roles)
      .values({ name: role.name, rank: role.rank, label: role.label })
      .onConflictDoUpdate({ target: roles.name, set: { rank: role.rank, label: role.label } });
  }
}
