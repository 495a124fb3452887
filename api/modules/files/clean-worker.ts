import { readlinkSync } from "node:fs";
import { UnreadableFileError } from "./bytes.ts";
import { OverBudgetError } from "./cleaning-budget.ts";
import { TooManyPixelsError } from "./image-dimensions.ts";
import type { CleaningAnswer, CleaningJob, WorkerHello } from "./cleaning-job.ts";
import { stripMetadata } from "./strip-metadata.ts";
import { sanitizeSvg } from "./svg-sanitize.ts";

/**
 * The cleaning worker's entry (decision 060): one job at a time, on its own thread, so a file that
 * takes long to clean delays no request. Entry point of its own in the server bundle and the
 * executable (scripts/server-build.ts, scripts/build.ts).
 */

/** Linux names each thread under /proc; elsewhere the pool falls back to wall-clock time. */
function ownThreadId(): number | null {
  try {
    return Number(readlinkSync("/proc/thread-self").split("/").at(-1)) || null;
  } catch {
    return null;
  }
}

function answer(job: CleaningJob): CleaningAnswer {
  try {
    if (job.kind === "svg") {
      const sanitized = sanitizeSvg(job.bytes);
      return sanitized ? { ok: true, bytes: sanitized, metadataRemoved: true } : { ok: false, failure: "unreadable" };
    }
    return { ok: true, ...stripMetadata(job.kind, job.bytes) };
  } catch (error) {
    if (error instanceof UnreadableFileError) return { ok: false, failure: "unreadable" };
    if (error instanceof OverBudgetError) return { ok: false, failure: "over-budget" };
    if (error instanceof TooManyPixelsError) return { ok: false, failure: "too-many-pixels" };
    return { ok: false, failure: "error", message: error instanceof Error ? error.message : String(error) };
  }
}

self.addEventListener("message", (event: MessageEvent<CleaningJob>) => {
  const result = answer(event.data);
  // The result's buffer is handed over, not copied; a result that is a view of a larger buffer is copied first.
  if (!result.ok) postMessage(result);
  else {
    const bytes = result.bytes.byteOffset === 0 && result.bytes.byteLength === result.bytes.buffer.byteLength ? result.bytes : result.bytes.slice();
    postMessage({ ...result, bytes }, [bytes.buffer as ArrayBuffer]);
  }
});

postMessage({ threadId: ownThreadId() } satisfies WorkerHello);
