import { doublePrecision, index, integer, snakeCase, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The server secret that signs proof-of-work challenges and keys sign-in subjects. Instances share
 * only the database, so the first instance to need it writes one random row and all read it.
 */
export const proofOfWorkKeys = snakeCase.table("proof_of_work_keys", {
  id: integer().primaryKey(),
  secret: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Solved challenges already spent, so one solution is accepted once across every instance. */
export const proofOfWorkRedemptions = snakeCase.table(
  "proof_of_work_redemptions",
  {
    /** The challenge's signature: unique per challenge. */
    signature: text().primaryKey(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index().on(t.expiresAt)],
);

/**
 * Recent failed sign-ins per subject (a staff email, a report ID), keyed by an HMAC of the
 * normalised subject: the same rows whether or not the subject exists, and no email or report ID
 * in the clear. The score decays over time (see api/modules/abuse/failures.ts).
 */
export const signInFailures = snakeCase.table(
  "sign_in_failures",
  {
    subjectKey: text().primaryKey(),
    score: doublePrecision().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index().on(t.updatedAt)],
);
