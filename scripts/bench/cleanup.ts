/**
 * Everything the benchmark starts or creates registers how to undo it here, so one call in a
 * `finally` (or on Ctrl-C) stops servers, removes temp dirs and drops the bench database, newest first.
 */
export type CleanupStep = () => Promise<void> | void;

export class CleanupStack {
  private readonly steps: { label: string; step: CleanupStep }[] = [];
  private running: Promise<void> | null = null;

  /** Registers a step; the returned function runs it now (once) and removes it from the stack. */
  defer(label: string, step: CleanupStep): () => Promise<void> {
    const entry = { label, step };
    this.steps.push(entry);
    return async () => {
      const index = this.steps.indexOf(entry);
      if (index === -1) return;
      this.steps.splice(index, 1);
      await step();
    };
  }

  /** Runs every remaining step even when some fail; a failed step is reported, not rethrown. */
  run(): Promise<void> {
    this.running ??= (async () => {
      while (this.steps.length > 0) {
        const entry = this.steps.pop()!;
        try {
          await entry.step();
        } catch (error) {
          console.error(`bench: cleanup "${entry.label}" failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    })();
    return this.running;
  }

  /** Ctrl-C or a kill skips `finally`, so the same cleanup also runs on those signals. */
  runOnSignals(): void {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      process.once(signal, () => {
        console.error(`bench: ${signal} received, cleaning up`);
        void this.run().finally(() => process.exit(130));
      });
    }
  }
}
