import { describe, expect, test } from "bun:test";
import { FORWARDED_COPY_MS, stopSignals } from "../../../api/lib/stop-signals.ts";

/**
 * A signal to the process group of `bun run start` reaches the server twice: once from the sender,
 * once forwarded by `bun run` (decision 069). The copy must not count as an operator's second signal,
 * which ends the process at once without closing the database. Started directly, nothing forwards.
 */

function clocked(forwardedByParent: boolean) {
  let now = 0;
  const verdict = stopSignals({ forwardedByParent, now: () => now });
  return { verdict, advance: (ms: number) => void (now += ms) };
}

describe("stop signals", () => {
  test("under a forwarding parent: the first signal stops, its copy even a busy moment later is ignored, a later one forces", () => {
    const { verdict, advance } = clocked(true);
    expect(verdict("SIGTERM")).toBe("stop");
    advance(400);
    expect(verdict("SIGTERM")).toBe("copy");
    advance(FORWARDED_COPY_MS);
    expect(verdict("SIGTERM")).toBe("force");
  });

  test("under a forwarding parent, another signal is never a copy: SIGINT then SIGTERM forces at once", () => {
    const { verdict } = clocked(true);
    expect(verdict("SIGINT")).toBe("stop");
    expect(verdict("SIGTERM")).toBe("force");
  });

  test("started directly, a second signal forces at once however soon it comes", () => {
    const { verdict, advance } = clocked(false);
    expect(verdict("SIGINT")).toBe("stop");
    advance(1);
    expect(verdict("SIGINT")).toBe("force");
  });
});
