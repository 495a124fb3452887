import { describe, expect, test } from "bun:test";
import { runCrashLoop } from "../../../scripts/crash-loop/engine.ts";
import { STOP_KINDS } from "../../../scripts/crash-loop/schedule.ts";

/**
 * The crash loop, short (docs/decisions/069-crash-loop.md): one cycle of each kind of stop, in an
 * order and at moments drawn from a seed printed here. Every start succeeds, every acknowledged
 * report, note and message is there once, nothing half-written shows. `bun run crash-loop` runs it
 * for 100 cycles, and replays a failure with `--seed`.
 */

const SEED = Math.floor(Math.random() * 2 ** 31);

describe("crash loop", () => {
  test(`every kind of stop once, with reporters and staff writing (seed ${SEED})`, async () => {
    const summary = await runCrashLoop({ cycles: STOP_KINDS.length, seed: SEED, reporters: 3, firstStartKills: 1 });
    for (const kind of STOP_KINDS) expect({ kind, cycles: summary.kinds[kind].cycles }).toEqual({ kind, cycles: 1 });
    // The loop wrote and stopped under load: the checks had something to find.
    expect(summary.reportsAcknowledged).toBeGreaterThan(0);
    expect(summary.notesAcknowledged).toBeGreaterThan(0);
    expect(summary.messagesAcknowledged).toBeGreaterThan(0);
  }, 600_000);
});
