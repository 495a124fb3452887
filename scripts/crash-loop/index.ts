import { parseArgs } from "node:util";
import { runCrashLoop } from "./engine.ts";

/**
 * `bun run crash-loop [--cycles 100] [--seed N] [--reporters 8]`: the crash loop of
 * docs/decisions/069-crash-loop.md on the embedded database, or on Postgres when DATABASE_URL is set.
 * The seed is printed first; the same seed replays the same kinds of stop at the same moments.
 */
const { values } = parseArgs({ options: { cycles: { type: "string", default: "100" }, seed: { type: "string" }, reporters: { type: "string", default: "8" } } });
const cycles = Number.parseInt(values.cycles, 10);
const reporters = Number.parseInt(values.reporters, 10);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number.parseInt(values.seed, 10);
if (![cycles, reporters, seed].every((value) => Number.isSafeInteger(value) && value >= 0) || cycles < 1 || reporters < 1) {
  console.error("Usage: bun run crash-loop [--cycles N] [--seed N] [--reporters N]");
  process.exit(64);
}

console.log(`crash loop: seed ${seed}, ${cycles} cycles, ${reporters} reporters, ${process.env.DATABASE_URL ? "Postgres" : "embedded PGlite on disk"}`);
try {
  const summary = await runCrashLoop({ cycles, seed, reporters, log: (line) => console.log(line) });
  console.log(JSON.stringify(summary, null, 2));
  console.log(`passed ${cycles} of ${cycles} cycles (seed ${seed})`);
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  console.error(`FAILED (replay with --seed ${seed})`);
  process.exit(1);
}
