/**
 * An open-loop load generator: requests start on a fixed schedule (`rate` a second) whether or not
 * earlier ones have answered, as independent people's browsers would. Latency is measured from
 * each request's *scheduled* start, so time spent waiting behind a slow server (or behind this
 * process falling behind its own schedule) counts, as it would for the person waiting. wrk is
 * closed-loop (a connection sends its next request only after the last answer), which hides
 * exactly that queueing.
 */

/** A request that does not answer in this time counts as an error, so a run always ends. */
export const OPEN_LOOP_TIMEOUT_MS = 10_000;

export interface OpenLoopResult {
  /** Milliseconds from scheduled start to a successful answer, sorted ascending. */
  latenciesMs: number[];
  sent: number;
  /** Requests that failed, timeouts included. */
  errors: number;
  /** Of those, the ones that had no answer within OPEN_LOOP_TIMEOUT_MS. */
  timeouts: number;
  firstError: string | null;
  /** Successful answers a second, over the time from the first scheduled start to the last answer. */
  achievedPerSecond: number;
  /** The furthest this process fell behind its schedule before starting a request. */
  maxStartLagMs: number;
}

/** Nearest-rank percentile of already sorted values (0 when there are none). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * A percentile over every request sent, failures ranked after the slowest answer (a page that never
 * came is worse than a slow one); null when it falls on a failure.
 */
export function sentPercentile(result: OpenLoopResult, p: number): number | null {
  const rank = Math.min(result.sent, Math.max(1, Math.ceil((p / 100) * result.sent)));
  return rank <= result.latenciesMs.length ? result.latenciesMs[rank - 1]! : null;
}

/**
 * Starts `issue(signal)` `rate` times a second for `seconds`; `issue` resolves when the answer is
 * complete and valid and throws otherwise. Waits for every request (each bounded by the timeout).
 */
export async function runOpenLoop(rate: number, seconds: number, issue: (signal: AbortSignal) => Promise<void>): Promise<OpenLoopResult> {
  const total = Math.round(rate * seconds);
  const intervalMs = 1000 / rate;
  const latencies: number[] = [];
  let errors = 0;
  let timeouts = 0;
  let firstError: string | null = null;
  let maxStartLagMs = 0;
  let lastAnswerAt = 0;
  const inFlight: Promise<void>[] = [];
  const startAt = performance.now() + 20;
  for (let i = 0; i < total; i += 1) {
    const scheduledAt = startAt + i * intervalMs;
    const wait = scheduledAt - performance.now();
    // Timers are only as precise as the event loop; a late start is caught up at once, never skipped.
    if (wait > 1) await Bun.sleep(wait);
    maxStartLagMs = Math.max(maxStartLagMs, performance.now() - scheduledAt);
    inFlight.push(
      issue(AbortSignal.timeout(OPEN_LOOP_TIMEOUT_MS)).then(
        () => {
          lastAnswerAt = performance.now();
          latencies.push(lastAnswerAt - scheduledAt);
        },
        (error: unknown) => {
          errors += 1;
          if (error instanceof DOMException && error.name === "TimeoutError") timeouts += 1;
          firstError ??= error instanceof Error ? error.message : String(error);
        },
      ),
    );
  }
  await Promise.all(inFlight);
  const window = Math.max(lastAnswerAt - startAt, 1) / 1000;
  return {
    latenciesMs: latencies.sort((a, b) => a - b),
    sent: total,
    errors,
    timeouts,
    firstError,
    achievedPerSecond: latencies.length / window,
    maxStartLagMs,
  };
}
