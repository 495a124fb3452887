/**
 * `bun run bench`: measures Lantern against a bare Bun.serve and prints one table of figures.
 * There is no pass/fail: the figures are for people to compare between changes. Progress goes to
 * stderr and the table to stdout, so `bun run bench > figures.txt` keeps just the table.
 *
 * BENCH_SECONDS   length of each measured wrk run (default 10; each is preceded by a 2 s warm-up)
 * BENCH_POSTGRES_URL  where to CREATE/DROP the lantern_bench database (default postgres://postgres@127.0.0.1:5432/test)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { CleanupStack } from "./cleanup.ts";
import { measurePglite, measurePostgres, measureRaw, rateRow, type BenchContext } from "./scenarios.ts";
import { failedRow, renderTable, type Row } from "./table.ts";
import { ensureWrk, WARMUP_SECONDS, WRK_CONNECTIONS, WRK_THREADS } from "./wrk.ts";

function benchSeconds(): number {
  const text = process.env.BENCH_SECONDS ?? "10";
  const seconds = Number(text);
  // Bounded on purpose: the bench is meant to finish in minutes.
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 300) {
    console.error(`BENCH_SECONDS must be a whole number of seconds from 1 to 300 (got "${text}")`);
    process.exit(78);
  }
  return seconds;
}

const seconds = benchSeconds();
const cleanup = new CleanupStack();
cleanup.runOnSignals();

const rows: Row[] = [];
let failed = false;
/** Runs one scenario; a failure becomes a row saying so, and the remaining scenarios still run. */
async function attempt<T>(label: string, unit: string, work: () => Promise<T>, toRows: (result: T) => Row[]): Promise<{ result: T | null; rows: Row[] }> {
  try {
    const result = await work();
    return { result, rows: toRows(result) };
  } catch (error) {
    failed = true;
    console.error(`bench: ${label} failed:`, error);
    return { result: null, rows: [failedRow(label, unit, error)] };
  }
}

try {
  const wrk = await ensureWrk();
  const scratchDir = await mkdtemp(join(tmpdir(), "lantern-bench-"));
  cleanup.defer("remove scratch dir", () => rm(scratchDir, { recursive: true, force: true }));
  const ctx: BenchContext = {
    wrk,
    seconds,
    scratchDir,
    cleanup,
    progress: (message) => console.error(`bench: ${message}…`),
  };

  // Start-up first, while the machine is quiet; then the baseline right before the runs it is compared with.
  const pglite = await attempt("PGlite start-up", "ms", () => measurePglite(ctx), (r) => [...r.startup, ...r.memory]);
  const raw = await attempt("Raw Bun.serve hello", "req/s", () => measureRaw(ctx), (r) => [rateRow("Raw Bun.serve hello (baseline)", r)]);
  const postgres = await attempt("GraphQL on Postgres", "req/s", () => measurePostgres(ctx, raw.result), (r) => r.throughput);
  // Display order: throughput, then start-up, then both memory figures together.
  const pgMemory = postgres.result?.memory ?? [];
  rows.push(...raw.rows, ...postgres.rows, ...pglite.rows, ...pgMemory);
} catch (error) {
  failed = true;
  console.error("bench: could not run:", error);
} finally {
  await cleanup.run();
}

const settings = `wrk -t${WRK_THREADS} -c${WRK_CONNECTIONS} -d${seconds}s --latency (after a ${WARMUP_SECONDS} s warm-up), loopback; Bun ${Bun.version}, ${availableParallelism()} CPUs`;
console.log(`\nLantern benchmark — ${settings}\n`);
console.log(renderTable(rows));
if (failed) process.exitCode = 1;
