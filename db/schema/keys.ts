import { index, snakeCase, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns.ts";
import { organisations } from "./identity.ts";

/**
 * Each organisation's data keys (docs/decisions/049-encryption-at-rest.md): 32 random bytes that
 * seal its reporters' answers, messages, notes and files, stored only wrapped (sealed) by the
 * master key, which never enters the database. The active key is the newest whose activeFrom has
 * come; older keys stay so that what they sealed still opens. A rotated-in key starts in the
 * future, so every instance has loaded it before any instance seals with it. Deleting an
 * organisation deletes its keys, and with them any copy of its data left in a backup.
 */
export const dataKeys = snakeCase.table(
  "data_keys",
  {
    id: id(),
    organisationId: uuid()
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    /** Which master key wrapped it (masterKeyId: a keyed digest, not the key). */
    masterKeyId: text().notNull(),
    /** nonce ‖ sealed key ‖ tag, in base64. */
    wrappedKey: text().notNull(),
    createdAt: createdAt(),
    /** From when it seals new values. */
    activeFrom: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.organisationId, t.activeFrom)],
);

/**
 * The platform's own data keys (docs/decisions/062-sealed-account-secrets.md): they seal secrets that
 * belong to no organisation, such as staff accounts' authenticator keys (a super admin has no
 * organisation) and the server secret of proof of work. Wrapped by the master key, rotated and
 * kept exactly as an organisation's keys are.
 */
export const platformKeys = snakeCase.table(
  "platform_keys",
  {
    id: id(),
    masterKeyId: text().notNull(),
    wrappedKey: text().notNull(),
    createdAt: createdAt(),
    activeFrom: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.activeFrom)],
);
