import type { Database } from "../../db/client.ts";
import { claimJobs, failJob, finishJob, pruneDoneJobs, type ClaimedJob, type RetryPolicy } from "./jobs.ts";
import { logError, logInfo } from "./log.ts";
import { mailFailureReason } from "./mailer.ts";
import { declareJob, jobFailures, observeJob } from "./metrics.ts";
import { jobName } from "./periodic-sweep.ts";

/**
 * Runs the jobs of the kinds it has handlers for (decision 058). It works when kicked (by the code
 * that just enqueued, so an idle server acts at once) and every `pollMs` (for retries coming due,
 * jobs another instance enqueued, and leases of crashed workers running out). One drain at a time;
 * a kick during a drain makes it look again before it ends.
 *
 * A job runs at least once: a worker that dies after the handler's effect and before marking the
 * job done leaves it to be run again when its lease ends. Handlers are written so that a second
 * run does no harm beyond, at worst, a repeated mail.
 */

export type JobHandler = (job: ClaimedJob) => Promise<void>;

export interface JobWorkerTiming {
  pollMs: number;
  /** How long a claimed job is this worker's; a handler must finish well within it. */
  leaseMs: number;
  /** Jobs claimed (and run side by side) at a time. */
  batch: number;
  retry: RetryPolicy;
  /** Done jobs are kept this long (to answer "was this sent?"), then pruned. */
  keepDoneMs: number;
  /** The clock the worker reads; tests move it on instead of waiting. */
  now: () => number;
}

export const JOB_TIMING: JobWorkerTiming = {
  pollMs: 5_000,
  leaseMs: 5 * 60_000,
  batch: 20,
  // 30 s, 1, 2, 4, 8, 16, 30, 30 minutes: about an hour and a half of mail server outage.
  retry: { baseDelayMs: 30_000, maxDelayMs: 30 * 60_000, maxAttempts: 9 },
  keepDoneMs: 24 * 60 * 60_000,
  now: () => Date.now(),
};

const PRUNE_EVERY_MS = 10 * 60_000;

export interface JobWorker {
  /** Looks for due jobs now (or once more after the drain under way). */
  kick(): void;
  /** Runs every job due now, and resolves when none is left; for tests and sweeps. */
  runDue(): Promise<void>;
  /** Stops polling and waits for the jobs under way; no job is claimed after this. */
  stop(): Promise<void>;
}

export function startJobWorker(db: Database, handlers: Record<string, JobHandler>, timing: JobWorkerTiming = JOB_TIMING): JobWorker {
  const kinds = Object.keys(handlers);
  for (const kind of kinds) declareJob(jobName(kind));
  let draining: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let prunedAt = 0;

  const runOne = async (job: ClaimedJob) => {
    const label = jobName(job.kind);
    try {
      await observeJob(label, handlers[job.kind]!(job));
    } catch (error) {
      const reason = mailFailureReason(error);
      const outcome = await failJob(db, job, new Date(timing.now()), reason, timing.retry);
      if (outcome === "failed") {
        // Out of attempts: the operator sees this line and the counter; the row stays `failed`.
        jobFailures.inc({ job: `${label}_given_up` });
        logError("A background job failed for good", undefined, { kind: job.kind, job: job.id, attempts: job.attempts, reason });
      } else {
        logInfo("A background job failed and will be retried", { kind: job.kind, job: job.id, attempts: job.attempts, reason, outcome });
      }
      return;
    }
    if (!(await finishJob(db, job, new Date(timing.now())))) logInfo("A background job outlived its lease", { kind: job.kind, job: job.id });
  };

  const drainOnce = async () => {
    for (;;) {
      again = false;
      const jobs = stopped ? [] : await claimJobs(db, kinds, new Date(timing.now()), timing.leaseMs, timing.batch);
      await Promise.all(jobs.map(runOne));
      if (jobs.length < timing.batch && !again) break;
    }
    if (!stopped && timing.now() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = timing.now();
      await pruneDoneJobs(db, kinds, new Date(timing.now() - timing.keepDoneMs));
    }
  };

  const drain = (): Promise<void> => {
    if (draining) {
      again = true;
      return draining;
    }
    draining = drainOnce()
      .catch((error: unknown) => logError("The job worker could not reach its jobs", error))
      .finally(() => {
        draining = null;
      });
    return draining;
  };

  const timer = setInterval(() => void drain(), timing.pollMs);
  timer.unref?.();
  // At once too: jobs left by an instance that stopped, or enqueued while none ran, are due now.
  void drain();

  return {
    kick: () => {
      if (!stopped) void drain();
    },
    async runDue() {
      // A drain under way may have claimed before the caller's jobs were due: look once more after it.
      if (draining) await drain();
      await drain();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await draining;
    },
  };
}
