import { logError } from "./log.ts";
import { observeJob } from "./metrics.ts";

/**
 * Runs `work` at once and then every `everyMs`, never two at a time; a failure is logged and the
 * next tick tries again. The returned function stops the timer and waits for a sweep under way,
 * so a server stops only after the mail or deletion it started is done.
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
