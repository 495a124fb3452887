/**
 * Which stop signals count (docs/decisions/069-crash-loop.md). Under `bun run start` (or `npm run`)
 * the server has a parent in its own process group that forwards every SIGTERM and SIGINT it gets: a
 * signal to the group (Ctrl-C in a terminal, `kill -TERM -- -PGID`, a supervisor that signals the
 * group) reaches the server twice, once from the sender and once from `bun run`, or once when the
 * kernel merges the two. Taken as a second signal, the copy ended such stops at once, with no graceful
 * stop and no clean close of the database. The server cannot see who sent a signal, and the copy's
 * handler can run long after the first's while the event loop is busy (seen at over 250 ms on a
 * loaded machine with the embedded database), so under such a parent a repeat within a generous window
 * is taken as the copy. Started directly (`bun api/main.ts`, the built executable), nothing forwards,
 * and a second signal forces the exit at once, as decision 056 says.
 */

/** Under a forwarding parent, a repeat of the same signal this soon after the first is its copy. */
export const FORWARDED_COPY_MS = 2_000;

/** Set on globalThis by scripts/start.ts when a package runner started it: it reaches the bundled server too. */
export const SIGNALS_FORWARDED_BY_PARENT = Symbol.for("lantern.signalsForwardedByParent");

export type StopSignalVerdict = "stop" | "copy" | "force";

export function signalsForwardedByParent(): boolean {
  return (globalThis as Record<symbol, unknown>)[SIGNALS_FORWARDED_BY_PARENT] === true;
}

/** Tells the first stop signal, a forwarded copy of it, and a second signal that should end the process at once. */
export function stopSignals(options: { forwardedByParent: boolean; now?: () => number }): (signal: NodeJS.Signals) => StopSignalVerdict {
  const now = options.now ?? (() => performance.now());
  let first: { signal: NodeJS.Signals; at: number } | null = null;
  return (signal) => {
    if (!first) {
      first = { signal, at: now() };
      return "stop";
    }
    return options.forwardedByParent && signal === first.signal && now() - first.at < FORWARDED_COPY_MS ? "copy" : "force";
  };
}
