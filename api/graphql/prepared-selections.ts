import { is, Placeholder, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";

/**
 * A relational query that Pothos shapes from the GraphQL selection, built by drizzle once per
 * shape and then only executed (decision 025). drizzle builds a relational query's SQL and its row
 * mapper on every call; for a small query that is most of its cost in this process. The shape is
 * the query's configuration with the looked-up id as a placeholder, so two requests asking for the
 * same fields share one prepared query. A configuration holding anything but plain data (SQL
 * fragments, functions) has no stable shape and is run as it is. At most `MAX_SHAPES` are kept per
 * database; past that, new shapes are run as they are.
 */
const MAX_SHAPES = 200;
const ID = "id";

interface PreparedLookup {
  execute(values: Record<string, unknown>): Promise<unknown>;
}

const preparedByDatabase = new WeakMap<Database, Map<string, PreparedLookup>>();
let names = 0;

/** JSON of plain data, with placeholders by name; null when something else is inside. */
function shapeOf(config: unknown): string | null {
  let plain = true;
  const text = JSON.stringify(config, (_key, value: unknown) => {
    if (is(value, Placeholder)) return `\u0000placeholder:${(value as unknown as { name: string }).name}`;
    if (value === null || typeof value !== "object") {
      if (typeof value === "function" || typeof value === "bigint" || typeof value === "symbol") plain = false;
      return value;
    }
    const prototype = Object.getPrototypeOf(value);
    if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) plain = false;
    return value;
  });
  return plain ? text : null;
}

/**
 * `findFirst` by primary key. `shape(where)` is Pothos's `query` with the filter filled in; `find`
 * is the table's `findFirst` (e.g. `(config) => db.query.users.findFirst(config)`).
 */
export async function findFirstById<Row>(
  db: Database,
  id: string,
  shape: (where: { id: unknown }) => Record<string, unknown>,
  find: (config: Record<string, unknown>) => Promise<Row | undefined> & { prepare(name: string): PreparedLookup },
): Promise<Row | undefined> {
  const config = shape({ id: { eq: sql.placeholder(ID) } });
  const key = shapeOf(config);
  if (key === null) return find(shape({ id: { eq: id } }));
  let prepared = preparedByDatabase.get(db);
  if (!prepared) preparedByDatabase.set(db, (prepared = new Map()));
  let lookup = prepared.get(key);
  if (!lookup) {
    if (prepared.size >= MAX_SHAPES) return find(shape({ id: { eq: id } }));
    lookup = find(config).prepare(`lookup_${(names += 1)}`);
    prepared.set(key, lookup);
  }
  return (await lookup.execute({ [ID]: id })) as Row | undefined;
}
