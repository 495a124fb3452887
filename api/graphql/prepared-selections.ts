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

/**
 * A key for plain data, with placeholders by name; null when something else is inside (a class
 * instance such as a SQL fragment or a date, a function, a number that is not finite, a hole in a
 * list). The data is walked once to check it and find the placeholders, then written by the
 * engine's own `JSON.stringify`: with a replacer, which visits every value in JavaScript, the key
 * cost several microseconds a request (decision 025). A placeholder writes as `{"name":…}`, so the
 * key ends with where the walk found them (their places in the order both visit values), and no
 * plain object can pass for one.
 */
export function shapeOf(config: unknown): string | null {
  const placeholders: number[] = [];
  let visited = 0;
  const plain = (value: unknown): boolean => {
    visited += 1;
    if (value === null) return true;
    switch (typeof value) {
      case "string":
      case "boolean":
        return true;
      case "number":
        return Number.isFinite(value);
      case "object":
        break;
      default:
        return false;
    }
    if (Array.isArray(value)) {
      for (const item of value) if (item === undefined || !plain(item)) return false;
      return true;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      if (!is(value, Placeholder)) return false;
      placeholders.push(visited);
      return true;
    }
    // Undefined values are left out, as JSON leaves them out and drizzle reads them as absent.
    for (const key in value) {
      const entry = (value as Record<string, unknown>)[key];
      if (entry !== undefined && !plain(entry)) return false;
    }
    return true;
  };
  return plain(config) ? `${JSON.stringify(config)}\u0000${placeholders.join(",")}` : null;
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
  memo?: RowMemo<Row>,
): Promise<Row | undefined> {
  const config = shape({ id: { eq: sql.placeholder(ID) } });
  const key = shapeOf(config);
  if (key === null) return find(shape({ id: { eq: id } }));
  const remembered = memo?.read(key);
  if (remembered) return remembered;
  const markedAt = memo?.mark() ?? 0;
  const row = await lookUp(db, key, config, id, shape, find);
  if (row && memo) memo.keep(key, row, markedAt);
  return row;
}

/** Copies of rows by selection, kept between requests (users/viewer-cache.ts); `mark` before the read, as InvalidatedCache says. */
export interface RowMemo<Row> {
  read(shape: string): Row | undefined;
  mark(): number;
  keep(shape: string, row: Row, markedAt: number): void;
}

async function lookUp<Row>(
  db: Database,
  key: string,
  config: Record<string, unknown>,
  id: string,
  shape: (where: { id: unknown }) => Record<string, unknown>,
  find: (config: Record<string, unknown>) => Promise<Row | undefined> & { prepare(name: string): PreparedLookup },
): Promise<Row | undefined> {
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
