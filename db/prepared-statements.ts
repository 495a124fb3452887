import type { Sql } from "postgres";

/**
 * drizzle sends every query it did not `.prepare()` itself as an unnamed statement. For one with
 * parameters, postgres.js then needs two round trips (Parse + Describe, wait for the parameter
 * types, then Bind + Execute) and PostgreSQL parses and plans the text again each time. Measured on
 * the session lookup: 0.24 ms of this process's CPU per query, against 0.044 ms prepared (decision
 * 025). So drizzle is given a client that asks postgres.js to prepare: postgres.js keeps one named
 * statement per distinct text on each connection and sends one Bind + Execute after the first use.
 *
 * Texts vary only with the code path and with list lengths (`in ($1, …, $n)`, rows in an insert),
 * so their number is bounded by the code; `MAX_PREPARED_TEXTS` bounds it anyway: past it, new texts
 * run unnamed as before, so no input can grow the statement caches without limit.
 */
export const MAX_PREPARED_TEXTS = 2000;
/** Longer texts (bulk inserts) are rare and would only fill the caches. */
const MAX_PREPARED_TEXT_LENGTH = 16_384;

type UnsafeOptions = Parameters<Sql["unsafe"]>[2];

export function preparingClient(sql: Sql, texts = new Set<string>()): Sql {
  const shouldPrepare = (text: string): boolean => {
    if (text.length > MAX_PREPARED_TEXT_LENGTH) return false;
    if (texts.has(text)) return true;
    if (texts.size >= MAX_PREPARED_TEXTS) return false;
    texts.add(text);
    return true;
  };
  // postgres.js hands a transaction its own client: it is wrapped too, sharing the same bound.
  const wrapCallback = (callback: (inner: Sql) => unknown) => (inner: Sql) => callback(preparingClient(inner, texts));
  return new Proxy(sql, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return (text: string, parameters?: unknown[], options?: UnsafeOptions) =>
          target.unsafe(text, parameters as never, { ...options, prepare: options?.prepare === true || shouldPrepare(text) });
      }
      if (property === "begin" || property === "savepoint") {
        return (...args: unknown[]) => {
          const last = args.length - 1;
          if (typeof args[last] === "function") args[last] = wrapCallback(args[last] as (inner: Sql) => unknown);
          return (Reflect.get(target, property) as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
