/**
 * `bun run bench`: measures Lantern against a bare Bun.serve and prints one table of figures.
 * There is no pass/fail: the figures are for people to compare between changes. Progress goes to
 * stderr and the table to stdout, so `bun run bench > figures.txt` keeps just the table.
 *
 * BENCH_SECONDS   length of each measured wrk run (default 10; each is preceded by a 2 s warm-up)
 * BENCH_REPORTS   reporter journeys (start, every page, complete) to run on Postgres (default 2000: about
 *                 as long as a wrk run, since a second or two of journeys moves too much between runs)
 * BENCH_REPORT_CONCURRENCY  how many of those run at once (default 16)
 * BENCH_POSTGRES_URL  where to CREATE/DROP the lantern_bench database (default postgres://postgres@127.0.0.1:5432/test)
 * BENCH_DATABASE  another name for that database, starting with lantern_bench (default lantern_bench)
 * BENCH_KEEP_DATABASE  1: leave that database in place at the end, for investigation (the next run recreates it)
 * BENCH_MASTER_KEY    the servers' MASTER_KEY (base64 of 32 bytes; default: made up for the run), so that a
 *                 kept database can be opened again by a server started by hand
 * BENCH_LIST_REPORTS  completed reports seeded into one organisation for the report list's latency (default 100000)
 * BENCH_LIST_RATE     report list requests a second, open loop, for BENCH_SECONDS after a 2 s warm-up (default 200)
 * BENCH_CHAT_SOCKETS  graphql-ws sockets open for chat delivery, half reporters and half staff (default 1000)
 * BENCH_CHAT_RATE     chat messages a second while they are open, alternating direction (default 20)
 * BENCH_CHAT_SIDEBARS staff sockets that also hold the console's sidebar counts subscription (default 0)
 * BENCH_ONLY      list, chat or form: only that part of the Postgres-at-scale run (scale.ts), no other scenario
 *                 (chat still seeds BENCH_LIST_REPORTS reports first, as the full run's chat has them);
 *                 requests: the raw baseline, GraphQL on Postgres and report completion; startup: PGlite
 *                 start-up, memory and other-origin requests; pages: the JS each page ships
 */
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { CleanupStack } from "./cleanup.ts";
import { measureAtScale, type ScaleSettings } from "./scale.ts";
import { measurePglite, measurePostgres, measureRaw, rateRow, type BenchContext } from "./scenarios.ts";
import { jsShippedRows, ensureSiteBuiltQuietly } from "./site-weight.ts";
import { withGoal } from "./goals.ts";
import { failedRow, renderTable, type Row } from "./table.ts";
import { ensureWrk, WARMUP_SECONDS, WRK_CONNECTIONS, WRK_THREADS } from "./wrk.ts";

/** A whole number from the environment; bounded on purpose, since the bench is meant to finish in minutes. */
function wholeNumberEnv(name: string, fallback: number, max: number, what: string, min = 1): number {
  const text = process.env[name] ?? String(fallback);
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    console.error(`${name} must be a whole number of ${what} from ${min} to ${max} (got "${text}")`);
    process.exit(78);
  }
  return value;
}

const seconds = wholeNumberEnv("BENCH_SECONDS", 10, 300, "seconds");
const reports = wholeNumberEnv("BENCH_REPORTS", 2_000, 20_000, "reports");
const reportConcurrency = wholeNumberEnv("BENCH_REPORT_CONCURRENCY", 16, 256, "journeys");
const scale: ScaleSettings = {
  listReports: wholeNumberEnv("BENCH_LIST_REPORTS", 100_000, 1_000_000, "reports"),
  listRate: wholeNumberEnv("BENCH_LIST_RATE", 200, 5_000, "requests a second"),
  chatSockets: wholeNumberEnv("BENCH_CHAT_SOCKETS", 1_000, 10_000, "sockets", 2),
  chatRate: wholeNumberEnv("BENCH_CHAT_RATE", 20, 1_000, "messages a second"),
  chatSidebars: wholeNumberEnv("BENCH_CHAT_SIDEBARS", 0, 5_000, "sockets", 0),
};
const SCALE_PARTS = ["list", "chat", "form"];
const ONLY_PARTS = [...SCALE_PARTS, "requests", "startup", "pages"];
const only = process.env.BENCH_ONLY || null;
if (only && !ONLY_PARTS.includes(only)) {
  console.error(`BENCH_ONLY must be one of ${ONLY_PARTS.join(", ")} (got "${only}")`);
  process.exit(78);
}
const cleanup = new CleanupStack();
cleanup.runOnSignals();

/** Flushes written files to disk, then waits a moment for the machine to go quiet. */
async function settleDisk(): Promise<void> {
  await Bun.spawn(["sync"], { stdout: "ignore", stderr: "ignore" }).exited;
  await Bun.sleep(2000);
}

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
    reports,
    reportConcurrency,
    progress: (message) => console.error(`bench: ${message}…`),
  };

  // The servers serve site/dist as it is when they start, and a fresh PGlite directory is filled from
  // the prepared cluster (decision 026), so both are brought up to date first, as `bun run start` does.
  ctx.progress("bringing the site build and the prepared cluster up to date");
  const siteError = await ensureSiteBuiltQuietly().then(() => null, (error: unknown) => error);
  if (siteError) console.error("bench: build failed:", siteError);
  // A build just written is still being flushed to disk: let it land before anything is timed, or
  // the first figures (start-up) measure the build's writeback instead of Lantern.
  await settleDisk();

  // Start-up first, while the machine is quiet; then the baseline right before the runs it is compared with.
  const runs = (part: string) => !only || only === part;
  const skipped = { result: null, rows: [] as Row[] };
  const pglite = runs("startup") ? await attempt("PGlite start-up", "ms", () => measurePglite(ctx), (r) => [...r.startup, ...r.memory]) : skipped;
  const origins = runs("startup") ? (pglite.result?.origins ?? [failedRow("Other-origin requests", "requests", "the PGlite server did not start")]) : [];
  const pageRows = [...(runs("pages") ? jsShippedRows(siteError) : []), ...origins];
  const raw = runs("requests") ? await attempt("Raw Bun.serve hello", "req/s", () => measureRaw(ctx), (r) => [rateRow("Raw Bun.serve hello (baseline)", r)]) : skipped;
  const postgres = runs("requests") ? await attempt("GraphQL on Postgres", "req/s", () => measurePostgres(ctx, raw.result), (r) => r.throughput) : skipped;
  const atScale = !only || SCALE_PARTS.includes(only) ? await attempt("Postgres at scale", "ms", () => measureAtScale(ctx, scale), (r) => r) : skipped;
  // Display order: throughput, then latency at scale, then start-up, then both memory figures together, then what pages ship and ask for.
  const pgMemory = postgres.result?.memory ?? [];
  rows.push(...raw.rows, ...postgres.rows, ...atScale.rows, ...pglite.rows, ...pgMemory, ...pageRows);
} catch (error) {
  failed = true;
  console.error("bench: could not run:", error);
} finally {
  await cleanup.run();
}

const settings = `wrk -t${WRK_THREADS} -c${WRK_CONNECTIONS} -d${seconds}s --latency (after a ${WARMUP_SECONDS} s warm-up), loopback; Bun ${Bun.version}, ${availableParallelism()} CPUs`;
console.log(`\nLantern benchmark — ${settings}\n`);
console.log(renderTable(rows.map(withGoal)));
// A figure that could not be measured (its row says why) fails the run as a whole scenario would.
if (failed || rows.some((row) => row.note?.startsWith("not measured"))) process.exitCode = 1;
