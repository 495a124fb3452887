import { sql } from "drizzle-orm";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { fileURLToPath } from "node:url";
import type { Database, DatabaseHandle } from "./client.ts";
import { ROLE_DEFINITIONS } from "../api/shared/roles.ts";
import { roles } from "./schema/index.ts";

/** Arbitrary but fixed: every Lantern instance takes this lock before touching the schema. */
const MIGRATION_LOCK_KEY = 0x4c616e74; // "Lant"

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("./migrations", import.meta.url));

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
      // Both migrators run the same SQL; they differ only in the driver type they accept.
      if (handle.kind === "pglite") await migratePglite(db as never, config);
      else await migratePostgres(db as never, config);
      await ensureRoles(db);
    } finally {
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
