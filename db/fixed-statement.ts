import { sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Database } from "./client.ts";

interface BuiltQuery {
  sql: string;
  params: unknown[];
}

/** What drizzle's `db.execute` does in two steps; both drivers' databases and transactions have them. */
interface DrizzleInternals {
  dialect: { sqlToQuery(statement: SQL): BuiltQuery };
  session: { prepareQuery(query: BuiltQuery, mode: "raw", name: false): { execute(values: Record<string, unknown>): Promise<unknown> } };
}

/**
 * A raw statement whose text never changes, only its values: its SQL text is built once, and each
 * call runs it with the values in place of its placeholders. `db.execute(sql`…`)` builds the text
 * again on every call, walking every fragment; for the reporter's long statements that walk cost
 * more of the server's time than sending them (decision 028). Answers what `db.execute` answers.
 */
export function fixedStatement<Name extends string>(build: (value: (name: Name) => Placeholder<Name>) => SQL): (db: Database, values: Record<Name, unknown>) => Promise<unknown> {
  let query: BuiltQuery | null = null;
  return (db, values) => {
    const { dialect, session } = db as unknown as DrizzleInternals;
    query ??= dialect.sqlToQuery(build((name) => sql.placeholder(name)));
    return session.prepareQuery(query, "raw", false).execute(values);
  };
}
