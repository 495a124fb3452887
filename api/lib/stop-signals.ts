/**
 * SIGTERM and SIGINT for the server process (decision 056): the first stops gracefully; a second one
 * while that runs ends the process at once, as an operator pressing Ctrl-C again means.
 *
 * Two things are not a second signal. `bun run start` forwards a signal to the server, which the
 * server also received itself when it went to the whole process group (Ctrl-C in a terminal, an
 * orchestrator stopping the group): the same signal twice within moments is one stop, and taking it as
 * two ended every such stop at once, database close and all (decision 067). And a signal that comes
 * while the server is still starting is kept and acted on once it has started, rather than ending the
 * process with the signal's default action before the handlers exist.
 */

/** Signals closer together than this are one stop delivered twice. */
export const SAME_STOP_MS = 1_000;

type StopSignal = "SIGINT" | "SIGTERM";

export interface StopSignals {
  /** The server has started: a signal that came during the start is acted on now. */
  started(stop: (signal: StopSignal) => void): void;
}

export function handleStopSignals(exitAtOnce: (signal: StopSignal) => void, now: () => number = Date.now): StopSignals {
  let first: { signal: StopSignal; at: number } | null = null;
  let stop: ((signal: StopSignal) => void) | null = null;
  const onSignal = (signal: StopSignal) => {
    if (first) {
      if (signal === first.signal && now() - first.at < SAME_STOP_MS) return;
      exitAtOnce(signal);
      return;
    }
    first = { signal, at: now() };
    stop?.(signal);
  };
  process.on("SIGINT", () => onSignal("SIGINT"));
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  return {
    started(handler) {
      stop = handler;
      if (first) handler(first.signal);
    },
  };
}
