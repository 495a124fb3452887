/**
 * The crash loop's plan (docs/decisions/069-crash-loop.md): which stop each cycle gets and when,
 * drawn from one seed so that a failing run can be replayed with `--seed`.
 */

export const STOP_KINDS = [
  /** SIGTERM to the server process: the orchestrator's stop. */
  "sigterm",
  /** SIGTERM to the process group of `bun run start`: Ctrl-C in a terminal, a supervisor that signals the group. */
  "group-sigterm",
  /** Two SIGTERMs 50 ms apart to the server: the operator who will not wait; the second ends it at once. */
  "double-sigterm",
  /** Two SIGTERMs 50 ms apart to the process group of `bun run start`: with the copies `bun run` forwards, up to four; one stop. */
  "group-double-sigterm",
  /** SIGKILL while reporters and staff write. */
  "sigkill",
  /** SIGKILL between the spawn and ready: opening the files, crash recovery, migrations, the seed check. */
  "sigkill-starting",
] as const;

export type StopKind = (typeof STOP_KINDS)[number];

export interface CyclePlan {
  cycle: number;
  kind: StopKind;
  /** For the stops under load: ms after the writing began. For sigkill-starting: the share (0–1) of a start's time. */
  moment: number;
}

/** The longest the writing runs before the stop: long enough for every completion to be under way or done. */
export const LOAD_WINDOW_MS = 2_500;

/** mulberry32: a small, good-enough generator whose whole state is the seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The cycles in blocks of every kind in a random order: any run of at least as many cycles as
 * there are kinds stops the server every way, and the kinds' counts differ by at most one.
 */
export function planCycles(seed: number, cycles: number): CyclePlan[] {
  const random = seededRandom(seed);
  const plans: CyclePlan[] = [];
  let block: StopKind[] = [];
  for (let cycle = 1; cycle <= cycles; cycle += 1) {
    if (block.length === 0) {
      block = [...STOP_KINDS];
      for (let at = block.length - 1; at > 0; at -= 1) {
        const other = Math.floor(random() * (at + 1));
        [block[at], block[other]] = [block[other]!, block[at]!];
      }
    }
    const kind = block.pop()!;
    const moment = kind === "sigkill-starting" ? random() : Math.floor(random() * LOAD_WINDOW_MS);
    plans.push({ cycle, kind, moment });
  }
  return plans;
}

export function describePlan(plan: CyclePlan): string {
  if (plan.kind === "sigkill-starting") return `${plan.kind} at ${Math.round(plan.moment * 100)}% of a start`;
  return `${plan.kind} at ${plan.moment} ms`;
}
