import { eq, sql } from "drizzle-orm";
import { organisations } from "../../db/schema/index.ts";
import type { TestServer } from "./server.ts";

/** Rows of a raw query: PGlite's driver answers `{ rows }`, postgres.js the rows themselves. */
export async function rowsOf<T>(server: TestServer, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await server.db.execute(query)) as unknown;
  return (typeof result === "object" && result !== null && "rows" in result ? (result as { rows: T[] }).rows : result) as T[];
}

/**
 * Every row of one organisation, as text: its own row and each row of every table with an
 * organisation_id. A request refused for another organisation must leave this as it was.
 */
export async function organisationRows(server: TestServer, organisationId: string): Promise<string> {
  const tables = await rowsOf<{ table_name: string }>(
    server,
    sql`select table_name from information_schema.columns where table_schema = 'public' and column_name = 'organisation_id' order by table_name`,
  );
  const parts = [JSON.stringify(await server.db.select().from(organisations).where(eq(organisations.id, organisationId)))];
  for (const { table_name } of tables) {
    const rows = await rowsOf<{ row: string }>(server, sql`select t::text as row from ${sql.identifier(table_name)} t where organisation_id = ${organisationId} order by 1`);
    parts.push(`${table_name}: ${rows.map((row) => row.row).join("\n")}`);
  }
  return parts.join("\n");
}
