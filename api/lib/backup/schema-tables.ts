import { sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { resultRows } from "../../../db/results.ts";

/** The migrator's own book-keeping: rebuilt by running the migrations, never archived. */
export const MIGRATIONS_TABLE = "__lantern_migrations";

/** Every table of Lantern's schema, the migrator's excepted, by name. */
export async function schemaTables(db: Database): Promise<string[]> {
  const rows = resultRows<{ name: string }>(
    await db.execute(sql`select tablename as name from pg_tables where schemaname = 'public' and tablename <> ${MIGRATIONS_TABLE} order by tablename`),
  );
  return rows.map((row) => row.name);
}

/** The name of the last migration applied, or null on a database without Lantern's tables. */
export async function lastMigration(db: Database): Promise<string | null> {
  const exists = resultRows<{ found: boolean }>(await db.execute(sql`select to_regclass(${`public.${MIGRATIONS_TABLE}`}) is not null as found`))[0]?.found;
  if (!exists) return null;
  const [last] = resultRows<{ name: string | null }>(await db.execute(sql.raw(`select name from "${MIGRATIONS_TABLE}" order by created_at desc, id desc limit 1`)));
  return last?.name ?? null;
}
