import { describe, expect, test } from "bun:test";
import { SIGNAL_ECHO_MS, stopSignals } from "../../../api/lib/stop-signals.ts";

/**
 * A signal to the process group of `bun run start` reaches the server twice: once from the sender,
 * once forwarded by `bun run` (decision 069). The copy must not count as an operator's second signal,
 * which ends the process at once without closing the database.
 */

function clocked() {
  let now = 0;
  const verdict = stopSignals(() => now);
  return { verdict, advance: (ms: number) => void (now += ms) };
}

describe("stop signals", () => {
  test("the first signal stops; its copy a moment later is ignored; a later one forces", () => {
    const { verdict, advance } = clocked();
    expect(verdict("SIGTERM")).toBe("stop");
    advance(3);
    expect(verdict("SIGTERM")).toBe("echo");
    advance(SIGNAL_ECHO_MS);
    expect(verdict("SIGTERM")).toBe("force");
  });

  test("Ctrl-C's copy is ignored as well", () => {
    const { verdict, advance } = clocked();
    expect(verdict("SIGINT")).toBe("stop");
    advance(1);
    expect(verdict("SIGINT")).toBe("echo");
  });

  test("another signal is never a copy: SIGINT then SIGTERM forces at once", () => {
    const { verdict } = clocked();
    expect(verdict("SIGINT")).toBe("stop");
    expect(verdict("SIGTERM")).toBe("force");
  });
});
