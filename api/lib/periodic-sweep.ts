import { logError } from "./log.ts";
import { observeJob } from "./metrics.ts";

/**
 * Runs `work` at once and then every `everyMs`, never two at a time; a failure is logged and the
 * next tick tries again. The returned function stops the timer and waits for a sweep under way,
 * so a server stops only after the mail or deletion it started is done.
 *
 * Every instance runs every sweep: what makes the work happen once across instances is the sweep's
 * own claim, which takes each due row `for update skip locked` and moves its state on in the same
 * statement, so two sweeps at once take different rows and a repeated one finds nothing to do.
 * Work that must be retried with back-off, or must not be lost with the instance, is a background
 * job instead (jobs.ts, decision 058).
 */
export function startPeriodicSweep(what: string, everyMs: number, work: () => Promise<unknown>): () => Promise<void> {
  const job = jobName(what);
  let running: Promise<void> | null = null;
  const sweep = () => {
    if (running) return;
    running = observeJob(job, work())
      .then(() => undefined)
      .catch((error: unknown) => logError(`${what} failed`, error))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(sweep, everyMs);
  timer.unref?.();
  sweep();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/** The job's label on the metrics page, from its fixed description: "Retention sweep" is retention_sweep. */
export function jobName(what: string): string {
  return what.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");
}
