import type { NewReportNotice } from "./report-notices.ts";

/**
 * Batches the claiming of new reports' notices (report-notices.ts). One claim runs at a time, at
 * once when none is running; the ids that arrive while it runs are claimed together by the next.
 * Under load reports arrive faster than a claim's round trip, so the notifier costs the database
 * one statement per batch rather than one per report, and an idle server still claims at once.
 *
 * The sweep claims notices older than `forgottenAfterMs` that no wake-up claimed: those whose
 * event was lost (an instance stopped between its commit and its NOTIFY) or whose claim failed.
 */
export interface NoticeTiming {
  /** How long the first id waits for others before its claim starts (0: the next turn of the event loop). */
  batchMs: number;
  maxBatch: number;
  sweepEveryMs: number;
  forgottenAfterMs: number;
}

export const NOTICE_TIMING: NoticeTiming = { batchMs: 0, maxBatch: 200, sweepEveryMs: 30_000, forgottenAfterMs: 15_000 };

export interface NoticeQueueWork {
  timing: NoticeTiming;
  claim(ids: string[]): Promise<NewReportNotice[]>;
  claimForgotten(before: Date, limit: number): Promise<NewReportNotice[]>;
  deliver(notices: NewReportNotice[]): Promise<void>;
  /** Runs a claim where its failure is logged and stop() waits for it. */
  track(task: Promise<void>): void;
}

export function startNoticeQueue(work: NoticeQueueWork): { add(id: string): void; stop(): Promise<void> } {
  const { timing } = work;
  const waiting = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let claiming: Promise<void> | null = null;
  let stopped = false;

  const schedule = () => {
    if (timer || claiming || stopped || waiting.size === 0) return;
    timer = setTimeout(flush, timing.batchMs);
  };
  const flush = () => {
    timer = null;
    const ids = [...waiting].slice(0, timing.maxBatch);
    for (const id of ids) waiting.delete(id);
    // One claim at a time: what arrives meanwhile makes the next batch. A failed claim leaves its
    // rows in place for the sweep.
    claiming = work.claim(ids).then(work.deliver);
    work.track(claiming);
    void claiming.catch(() => {}).finally(() => {
      claiming = null;
      schedule();
    });
  };

  let sweeping = false;
  const sweep = async () => {
    if (sweeping || stopped) return;
    sweeping = true;
    try {
      for (;;) {
        const notices = await work.claimForgotten(new Date(Date.now() - timing.forgottenAfterMs), timing.maxBatch);
        await work.deliver(notices);
        if (notices.length < timing.maxBatch || stopped) break;
      }
    } finally {
      sweeping = false;
    }
  };
  const sweeper = setInterval(() => work.track(sweep()), timing.sweepEveryMs);
  sweeper.unref?.();
  // Once at start too: an instance that stopped uncleanly may have left notices behind.
  work.track(sweep());

  return {
    add(id) {
      if (stopped) return;
      waiting.add(id);
      schedule();
    },
    async stop() {
      stopped = true;
      clearInterval(sweeper);
      if (timer) {
        clearTimeout(timer);
        timer = null;
      }
      await claiming?.catch(() => {});
    },
  };
}
