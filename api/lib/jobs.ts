import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { resultRows } from "../../db/results.ts";
import { backgroundJobs } from "../../db/schema/index.ts";

/**
 * The durable job queue (decision 058), one table on PGlite and Postgres alike. Every time it
 * reads is passed in rather than taken from the database's clock, so tests move time on instead of
 * waiting, and every statement is one round trip.
 */

export interface JobToEnqueue {
  kind: string;
  /** What the job is about, by id; the handler reads everything else when it runs. */
  subjectId: string;
  /** Makes the enqueue idempotent: a second job with the same key is not added. */
  dedupeKey?: string;
  runAt?: Date;
}

export interface ClaimedJob {
  id: string;
  kind: string;
  subjectId: string;
  /** This run included: 1 on the first run. */
  attempts: number;
  /** Proves the lease is still this worker's when the job is finished. */
  lockToken: string;
}

export interface RetryPolicy {
  /** The first retry's delay; each further retry doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Runs in all, the first included; the last failure leaves the job `failed`. */
  maxAttempts: number;
}

const KIND = /^[a-z][a-z0-9_.]{0,63}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Refuses a job that could carry more than an id: kinds are fixed names, subjects are UUIDs. */
function checked(job: JobToEnqueue): JobToEnqueue {
  if (!KIND.test(job.kind)) throw new Error(`A job kind must be a short fixed name, not ${JSON.stringify(job.kind.slice(0, 80))}`);
  if (!UUID.test(job.subjectId)) throw new Error("A job's subject must be an id");
  if (job.dedupeKey !== undefined && job.dedupeKey.length > 200) throw new Error("A job's dedupe key is too long");
  return job;
}

/**
 * Adds jobs; pass the transaction of the change that causes them, so they exist exactly when it
 * commits. Returns how many were added (a job whose dedupe key is taken is not).
 */
export async function enqueueJobs(db: Database, jobs: JobToEnqueue[]): Promise<number> {
  if (jobs.length === 0) return 0;
  const rows = jobs.map(checked).map((job) => ({ kind: job.kind, subjectId: job.subjectId, dedupeKey: job.dedupeKey ?? null, ...(job.runAt ? { runAt: job.runAt } : {}) }));
  const added = await db.insert(backgroundJobs).values(rows).onConflictDoNothing().returning({ id: backgroundJobs.id });
  return added.length;
}

/**
 * Takes up to `limit` due jobs of these kinds for `leaseMs`: queued jobs whose time has come and
 * whose lease, if any, has run out (their worker stopped or hung). SKIP LOCKED lets workers on
 * every instance claim at once without waiting on, or taking, each other's rows.
 */
export async function claimJobs(db: Database, kinds: string[], now: Date, leaseMs: number, limit: number): Promise<ClaimedJob[]> {
  if (kinds.length === 0) return [];
  const at = sql`${now.toISOString()}::timestamptz`;
  const until = sql`${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz`;
  const kindList = sql.join(
    kinds.map((kind) => sql`${kind}`),
    sql`, `,
  );
  const result = await db.execute(sql`
    with due as (
      select ${backgroundJobs.id} as id from ${backgroundJobs}
      where ${backgroundJobs.state} = 'queued' and ${backgroundJobs.kind} in (${kindList}) and ${backgroundJobs.runAt} <= ${at}
        and (${backgroundJobs.lockedUntil} is null or ${backgroundJobs.lockedUntil} <= ${at})
      order by ${backgroundJobs.runAt}
      limit ${limit}
      for update skip locked
    )
    update ${backgroundJobs} set locked_until = ${until}, lock_token = gen_random_uuid(), attempts = ${backgroundJobs.attempts} + 1
    from due where ${backgroundJobs.id} = due.id
    returning ${backgroundJobs.id} as id, ${backgroundJobs.kind} as kind, ${backgroundJobs.subjectId} as subject_id,
      ${backgroundJobs.attempts} as attempts, ${backgroundJobs.lockToken} as lock_token`);
  return resultRows<{ id: string; kind: string; subject_id: string; attempts: number; lock_token: string }>(result).map((row) => ({
    id: row.id,
    kind: row.kind,
    subjectId: row.subject_id,
    attempts: Number(row.attempts),
    lockToken: row.lock_token,
  }));
}

const stillHeld = (job: ClaimedJob) => and(eq(backgroundJobs.id, job.id), eq(backgroundJobs.lockToken, job.lockToken), eq(backgroundJobs.state, "queued"));

/** Marks a job done; false when its lease had run out and another worker holds it now. */
export async function finishJob(db: Database, job: ClaimedJob, now: Date): Promise<boolean> {
  const rows = await db
    .update(backgroundJobs)
    .set({ state: "done", finishedAt: now, lockedUntil: null, lockToken: null, lastError: null })
    .where(stillHeld(job))
    .returning({ id: backgroundJobs.id });
  return rows.length > 0;
}

/** The wait before the run after `attempts` failed runs: base, 2 × base, 4 × base, … up to the cap. */
export function retryDelayMs(policy: RetryPolicy, attempts: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * Records a failed run: the job runs again after its back-off, or, out of attempts, stays `failed`.
 * Returns which, or "lost" when another worker holds the job by now.
 */
export async function failJob(db: Database, job: ClaimedJob, now: Date, reason: string, policy: RetryPolicy): Promise<"retry" | "failed" | "lost"> {
  const givingUp = job.attempts >= policy.maxAttempts;
  const rows = await db
    .update(backgroundJobs)
    .set(
      givingUp
        ? { state: "failed", finishedAt: now, lockedUntil: null, lockToken: null, lastError: reason.slice(0, 100) }
        : { runAt: new Date(now.getTime() + retryDelayMs(policy, job.attempts)), lockedUntil: null, lockToken: null, lastError: reason.slice(0, 100) },
    )
    .where(stillHeld(job))
    .returning({ id: backgroundJobs.id });
  if (rows.length === 0) return "lost";
  return givingUp ? "failed" : "retry";
}

/** Deletes done jobs of these kinds finished before `before`; failed jobs stay for the operator to see. */
export async function pruneDoneJobs(db: Database, kinds: string[], before: Date): Promise<number> {
  if (kinds.length === 0) return 0;
  const rows = await db
    .delete(backgroundJobs)
    .where(and(eq(backgroundJobs.state, "done"), inArray(backgroundJobs.kind, kinds), lt(backgroundJobs.finishedAt, before)))
    .returning({ id: backgroundJobs.id });
  return rows.length;
}
