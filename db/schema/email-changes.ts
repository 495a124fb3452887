import { index, snakeCase, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";
import { users } from "./identity.ts";

/**
 * A new email address waiting for its owner to open the link mailed to it (decision 061). Until
 * then the account keeps its old address for sign-in, resets and mail. One per account: a new
 * request replaces it. Both links are stored only as their SHA-256: the confirmation went to the
 * new address, the cancellation to the old one.
 */
export const emailChanges = snakeCase.table(
  "email_changes",
  {
    userId: uuid()
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    newEmail: text().notNull(),
    confirmTokenHash: text().notNull().unique(),
    cancelTokenHash: text().notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index().on(t.expiresAt)],
);
