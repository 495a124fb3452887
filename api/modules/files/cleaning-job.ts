import type { FileKind } from "./sniff.ts";

/** What the cleaning worker is sent and answers (cleaning-pool.ts, clean-worker.ts). */
export interface CleaningJob {
  /** "svg": a chat image, sanitised rather than stripped. */
  kind: FileKind | "svg";
  bytes: Uint8Array;
}

export type CleaningAnswer =
  | { ok: true; bytes: Uint8Array; metadataRemoved: boolean }
  | { ok: false; failure: "unreadable" | "over-budget" | "too-many-pixels" }
  | { ok: false; failure: "error"; message: string };

/** The worker's first message: its thread's id, so the pool can read the CPU time that thread has used. */
export interface WorkerHello {
  threadId: number | null;
}
