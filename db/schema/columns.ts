import { boolean, timestamp, uuid } from "drizzle-orm/pg-core";

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
