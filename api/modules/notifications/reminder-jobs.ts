import type { Database } from "../../../db/client.ts";
import { reportSubmissions } from "../../../db/schema/index.ts";
import type { Services } from "../../context.ts";
import { JOB_TIMING, startJobWorker, type JobHandler, type JobWorkerTiming } from "../../lib/job-worker.ts";
import { startPeriodicSweep } from "../../lib/periodic-sweep.ts";
import { mailEveryAddress } from "./mail.ts";
import type { ReminderTiming } from "./stale-reminders.ts";

/**
 * The timer sweeps' mails as background jobs (decision 058): stale-message reminders, legal-deadline
 * reminders and retention warnings. A sweep claims its rows and, in the same transaction, enqueues
 * one job per reminder (the report's id, the reminder's number or clock in its kind or dedupe key,
 * never an address); the job reads the report and its recipients when it runs and mails them, so a
 * mail server's outage or an instance stopping between the claim and the send delays a reminder
 * instead of losing it.
 */

/** What every reminder job reads of its report: its ID for the subject, and what its console link needs. */
export const reminderReportColumns = { id: reportSubmissions.id, reportId: reportSubmissions.reportId, formId: reportSubmissions.formId };

/** A run in which no reminder could be handed to the mailer: the job is tried again after its back-off. */
export class NoReminderSent extends Error {
  constructor(readonly code: string) {
    super("No reminder email could be handed to the mailer");
  }
}

/**
 * Mails each address on its own. When every address failed (the mail server is down) the job fails
 * and is retried; when only some did it is done, as the notifier's jobs are: a retry would mail the
 * others again, and an address the server rejects would be rejected each time.
 */
export async function mailReminderOrRetry(services: Services, kind: string, addresses: string[], subject: string, url: string): Promise<void> {
  if (addresses.length === 0) return;
  const outcome = await mailEveryAddress(services, kind, addresses, subject, url);
  if (outcome.sent === 0) throw new NoReminderSent(outcome.reason ?? "unknown");
}

/**
 * Runs a sweep at once and every `sweepEveryMs`, and a worker for the jobs its sweeps enqueue, on
 * the same clock. Each sweep that enqueued runs the jobs due before it ends, so an idle server mails
 * at once; the worker's own polling takes retries, jobs another instance enqueued and jobs a stopped
 * instance left. The returned function stops the sweep, then the worker, each waiting for its work
 * under way.
 */
export function startSweepWithJobs(
  what: string,
  handlers: Record<string, JobHandler>,
  sweep: (now: Date) => Promise<number>,
  services: Services,
  timing: ReminderTiming,
): () => Promise<void> {
  const worker = startJobWorker(services.database.db, handlers, { ...JOB_TIMING, now: timing.now });
  const stopSweep = startPeriodicSweep(what, timing.sweepEveryMs, async () => {
    const enqueued = await sweep(new Date(timing.now()));
    if (enqueued > 0) await worker.runDue();
  });
  return async () => {
    await stopSweep();
    await worker.stop();
  };
}

/**
 * Runs every job of these handlers due at `now` on a worker of its own, and returns when none is
 * left: what a server's worker would do by then. For tests and operators' scripts.
 */
export async function runReminderJobsAt(db: Database, handlers: Record<string, JobHandler>, now: Date, timing: JobWorkerTiming = JOB_TIMING): Promise<void> {
  const worker = startJobWorker(db, handlers, { ...timing, pollMs: 3_600_000, now: () => now.getTime() });
  try {
    await worker.runDue();
  } finally {
    await worker.stop();
  }
}
