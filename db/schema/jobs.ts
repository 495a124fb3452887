import { index, integer, snakeCase, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns.ts";

/**
 * Background jobs (decision 058): work that must happen once, after a commit, even if the instance
 * that caused it stops. A job names what it is about by id only (`subject_id`): never an address,
 * an answer or a message, which the handler reads afresh when it runs.
 *
 * `queued` rows are due at `run_at`; a worker takes one by setting `locked_until` (its lease) and a
 * fresh `lock_token`, so a worker that dies mid-job loses it when the lease runs out. `done` rows
 * are pruned after a while; `failed` rows (out of attempts) stay for the operator.
 */
export const backgroundJobs = snakeCase.table(
  "background_jobs",
  {
    id: id(),
    kind: text().notNull(),
    subjectId: uuid().notNull(),
    /** Set when several instances may enqueue the same job (each hears the same event): the first wins. */
    dedupeKey: text(),
    state: text({ enum: ["queued", "done", "failed"] }).notNull().default("queued"),
    runAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp({ withTimezone: true }),
    lockToken: uuid(),
    attempts: integer().notNull().default(0),
    /** The last failure's code or class only (never an error message, which may quote an address). */
    lastError: text(),
    createdAt: createdAt(),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex().on(t.dedupeKey), index().on(t.state, t.runAt), index().on(t.state, t.finishedAt)],
);
