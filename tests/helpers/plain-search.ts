import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { resultRows } from "../../db/results.ts";

/**
 * Searches for a value in plain where it rests: every row of every table as text, every file under
 * a directory as bytes (docs/decisions/049 and 062). A test searches for a value it knows is written
 * in plain too, so that an empty answer proves something.
 */

/** Every table of the database, whatever its schema. */
export async function everyTable(db: Database): Promise<{ schema: string; name: string }[]> {
  return resultRows<{ schema: string; name: string }>(
    await db.execute(
      sql`select table_schema as schema, table_name as name from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`,
    ),
  );
}

/** The names of the tables with a row whose text holds `needle` (case ignored). */
export async function tablesHolding(db: Database, needle: string): Promise<string[]> {
  const tables = await everyTable(db);
  const found: string[] = [];
  for (const table of tables) {
    const [row] = resultRows<{ n: number }>(await db.execute(sql`select count(*)::int as n from ${sql.identifier(table.schema)}.${sql.identifier(table.name)} as t where t::text ilike ${`%${needle}%`}`));
    if (row!.n > 0) found.push(table.name);
  }
  return found;
}

/** Every file under `directory`, however deep. */
export function filesUnder(directory: string): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The files under `directory` whose bytes hold `needle`. */
export function filesHolding(directory: string, needle: string): string[] {
  return filesUnder(directory).filter((file) => readFileSync(file).includes(Buffer.from(needle)));
}
