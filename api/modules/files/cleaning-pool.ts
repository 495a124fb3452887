import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { UserError } from "../../lib/errors.ts";
import { LaneGate, type Lane } from "../../lib/lane-gate.ts";
import { UnreadableFileError } from "./bytes.ts";
import { OverBudgetError } from "./cleaning-budget.ts";
import type { CleanedFile } from "./cleaned-file.ts";
import type { CleaningAnswer, CleaningJob, WorkerHello } from "./cleaning-job.ts";
import { TooManyPixelsError } from "./image-dimensions.ts";

/**
 * Where uploads are cleaned (docs/decisions/060-upload-cleaning-budget.md): in worker threads, never
 * on the thread that answers requests, so however long one file takes, /healthz and every other
 * request are answered meanwhile. A small pool (one worker on two cores, leaving the other to
 * requests) behind a bounded queue with two lanes, as the hashing gate has (decision 016): "open" for
 * anonymous uploads that paid nothing, short, and "trusted" for those that paid proof of work and for
 * signed-in staff. A job that uses more than its CPU time is ended by terminating its worker.
 */

const MAX_WORKERS = Math.max(1, Math.min(2, availableParallelism() - 1));
const MAX_QUEUED = { trusted: 32, open: 4 } as const;
/** CPU time one upload's cleaning may use: a 25 MB PDF takes a fraction of it, a hostile one is stopped. */
export const CPU_BUDGET_MS = 5_000;
/** Without a thread's CPU time to read (not Linux), or on a starved machine: the CPU budget in wall time, with room. */
const WALL_PER_CPU = 5;
const WATCH_EVERY_MS = 50;
/** /proc counts CPU time in clock ticks (USER_HZ), 100 a second on Linux. */
const CLOCK_TICKS_PER_MS = 100 / 1000;

export type CleaningLane = Lane;

export const CLEANING_BUSY = "Many files are being checked right now. Please try again in a moment.";

/** The lane's queue is full: the caller asks for proof of work (anonymous) or answers 429. */
export class CleaningBusyError extends UserError {
  constructor() {
    super("TOO_MANY_REQUESTS", CLEANING_BUSY);
  }
}

/**
 * The worker's module. The server bundle and the executable name their own copy at build time
 * (scripts/server-build.ts, scripts/build.ts), which Bun resolves against this module's URL;
 * from the sources it is the file beside this one.
 */
declare const LANTERN_CLEAN_WORKER: string | undefined;
const WORKER_URL = new URL(typeof LANTERN_CLEAN_WORKER === "string" ? LANTERN_CLEAN_WORKER : "./clean-worker.ts", import.meta.url);

/** CPU time (ms) a thread of this process has used, or null when it cannot be read. */
function threadCpuMs(threadId: number): number | null {
  try {
    // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th of them.
    const stat = readFileSync(`/proc/self/task/${threadId}/stat`, "latin1");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_MS;
  } catch {
    return null;
  }
}

class CleaningWorker {
  // An idle worker must not keep the process alive (ref: false).
  private readonly worker = new Worker(WORKER_URL, { smol: true, ref: false });
  private readonly hello: Promise<WorkerHello>;
  private pending: ((answer: CleaningAnswer) => void) | null = null;
  private failed: ((error: Error) => void) | null = null;
  broken = false;

  constructor() {
    let greeted: (hello: WorkerHello) => void;
    this.hello = new Promise((resolve) => (greeted = resolve));
    this.worker.addEventListener("message", (event: MessageEvent<CleaningAnswer | WorkerHello>) => {
      if ("threadId" in event.data) greeted(event.data);
      else this.pending?.(event.data);
    });
    this.worker.addEventListener("error", (event) => {
      this.broken = true;
      greeted({ threadId: null });
      this.failed?.(new Error(`The cleaning worker failed: ${event.message}`));
    });
  }

  async run(job: CleaningJob, cpuBudgetMs: number): Promise<CleaningAnswer> {
    const { threadId } = await this.hello;
    if (this.broken) throw new Error("The cleaning worker failed to start.");
    const startCpu = threadId === null ? null : threadCpuMs(threadId);
    const startWall = performance.now();
    const owned = job.bytes.byteOffset === 0 && job.bytes.byteLength === job.bytes.buffer.byteLength ? job.bytes : job.bytes.slice();
    return new Promise<CleaningAnswer>((resolve, reject) => {
      const watch = setInterval(() => {
        const cpu = threadId === null || startCpu === null ? null : threadCpuMs(threadId);
        const overCpu = cpu !== null && cpu - startCpu! > cpuBudgetMs;
        if (!overCpu && performance.now() - startWall <= WALL_PER_CPU * cpuBudgetMs) return;
        // Synchronous work cannot be interrupted from inside: the thread goes, with all it held.
        this.broken = true;
        this.worker.terminate();
        done();
        resolve({ ok: false, failure: "over-budget" });
      }, WATCH_EVERY_MS);
      const done = () => {
        clearInterval(watch);
        this.pending = null;
        this.failed = null;
      };
      this.pending = (answer) => {
        done();
        resolve(answer);
      };
      this.failed = (error) => {
        done();
        reject(error);
      };
      this.worker.postMessage({ kind: job.kind, bytes: owned } satisfies CleaningJob, [owned.buffer as ArrayBuffer]);
    });
  }

  stop(): void {
    this.worker.terminate();
  }
}

const idle: CleaningWorker[] = [];
const gate = new LaneGate(MAX_WORKERS, MAX_QUEUED, () => new CleaningBusyError());

/** Whether an anonymous upload that paid nothing would be turned away now. */
export const openCleaningLaneFull = (): boolean => gate.openFull();

/** What the pool holds now: cleanings running and waiting per lane. */
export const cleaningPoolState = (): { running: number; waiting: Record<CleaningLane, number> } => gate.state();

async function runJob(job: CleaningJob, cpuBudgetMs: number): Promise<CleaningAnswer> {
  const worker = idle.pop() ?? new CleaningWorker();
  try {
    return await worker.run(job, cpuBudgetMs);
  } finally {
    if (worker.broken) worker.stop();
    else idle.push(worker);
  }
}

/**
 * The upload's bytes cleaned in a worker, within its budgets. Throws UnreadableFileError when its
 * structure cannot be followed, OverBudgetError past the budget of inflated bytes or of CPU time,
 * TooManyPixelsError for a picture no browser should draw, and CleaningBusyError when the lane's queue is full. `bytes` is handed to the worker: the caller
 * must not use it afterwards. `cpuBudgetMs` is CPU_BUDGET_MS but where a test shows the budget's end.
 */
export async function cleanInWorker(job: CleaningJob, lane: CleaningLane, cpuBudgetMs = CPU_BUDGET_MS): Promise<CleanedFile> {
  const answer = await gate.run(lane, () => runJob(job, cpuBudgetMs));
  if (answer.ok) return { bytes: answer.bytes, metadataRemoved: answer.metadataRemoved };
  if (answer.failure === "unreadable") throw new UnreadableFileError();
  if (answer.failure === "over-budget") throw new OverBudgetError();
  if (answer.failure === "too-many-pixels") throw new TooManyPixelsError();
  throw new Error("message" in answer ? answer.message : "The cleaning worker failed.");
}

/** Ends the idle workers (the server is stopping); a running job's worker ends when it is done. */
export function stopCleaningWorkers(): void {
  for (const worker of idle.splice(0)) worker.stop();
}
