import { sql } from "drizzle-orm";
import { boolean, timestamp, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";

/** Shared column shapes, so every table spells ids, timestamps and archiving the same way. */

export const id = () => uuid().primaryKey().defaultRandom();

export const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

export const updatedAt = () =>
  timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

export const archiving = () => ({
  archived: boolean().notNull().default(false),
  archivedAt: timestamp({ withTimezone: true }),
});

/**
 * A text column's value from before encryption: not empty and without the seal's mark ("lx1:",
 * api/lib/key-ring.ts). Partial indexes on it hold only such rows, so the start-up's sealing finds
 * them without reading every row (api/lib/reseal.ts, decision 059); its queries spell the same terms.
 */
export const inPlain = (column: AnyPgColumn) => sql`(${column} <> '' and ${column} not like 'lx1:%')`;
