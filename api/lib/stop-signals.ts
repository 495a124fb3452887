/**
 * Which stop signals count (docs/decisions/069-crash-loop.md). A signal to the process group of
 * `bun run start` (Ctrl-C in a terminal, `kill -TERM -- -PGID`, a supervisor that signals the group)
 * reaches the server and `bun run`, and `bun run` forwards its copy to the server: one stop arrives
 * twice, the copy a few milliseconds later (up to 10 ms measured on a loaded 2-core machine), or
 * merged into the first by the kernel. Taken as a second signal, the copy ended every such stop at
 * once, with no graceful stop and no clean close of the database.
 */

/** A repeat of the same signal this soon after the first is its copy; a later one is an operator's second signal. */
export const SIGNAL_ECHO_MS = 250;

export type StopSignalVerdict = "stop" | "echo" | "force";

/** Tells the first stop signal, a forwarded copy of it, and a second signal that should end the process at once. */
export function stopSignals(now: () => number = () => performance.now()): (signal: NodeJS.Signals) => StopSignalVerdict {
  let first: { signal: NodeJS.Signals; at: number } | null = null;
  return (signal) => {
    if (!first) {
      first = { signal, at: now() };
      return "stop";
    }
    return signal === first.signal && now() - first.at < SIGNAL_ECHO_MS ? "echo" : "force";
  };
}
