import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import type { CleanupStack } from "./cleanup.ts";
import { graphql, lanternEnv, login, startLantern, TYPENAME_QUERY, VIEWER_QUERY, GRAPHQL_PATH, type LanternServer } from "./lantern.ts";
import { benchDatabaseUrl, dropBenchDatabase, recreateBenchDatabase } from "./postgres.ts";
import { childEnv, freePort, readRssKib, runCommand, spawnChild, stopChild, waitUntilReady } from "./processes.ts";
import { formatCount, formatMs, formatRatio, type Row } from "./table.ts";
import { measureOtherOrigins } from "./origins.ts";
import { measureReports } from "./reports.ts";
import { measure, type WrkResult } from "./wrk.ts";

/** Idle time before reading RSS, so start-up garbage has a chance to be collected. */
const IDLE_MS = 2000;
const BENCH_EMAIL = "bench@lantern.test";
const BENCH_PASSWORD = "bench-password-1";

export interface BenchContext {
  wrk: string;
  seconds: number;
  /** A temp dir removed at the end; scenarios put their data dirs and wrk scripts under it. */
  scratchDir: string;
  cleanup: CleanupStack;
  /** Reporter journeys to complete on Postgres, and how many run at once. */
  reports: number;
  reportConcurrency: number;
  progress(message: string): void;
}

async function tempDir(ctx: BenchContext, prefix: string): Promise<string> {
  return mkdtemp(join(ctx.scratchDir, prefix));
}

function rateNote(result: WrkResult): string {
  const problems = result.non2xx + result.socketErrors;
  const errors = problems > 0 ? `; ${result.non2xx} non-2xx, ${result.socketErrors} socket errors` : "";
  return `p50 ${formatMs(result.p50Ms)} ms, p99 ${formatMs(result.p99Ms)} ms${errors}`;
}

export function rateRow(name: string, result: WrkResult): Row {
  return { name, value: formatCount(result.requestsPerSecond), unit: "req/s", note: rateNote(result) };
}

export function ratioRow(name: string, result: WrkResult, baseline: WrkResult | null): Row {
  if (!baseline) return { name, value: "—", unit: "of raw", note: "no raw baseline" };
  return { name, value: formatRatio(result.requestsPerSecond / baseline.requestsPerSecond), unit: "of raw" };
}

function rssRow(name: string, kib: number, note: string): Row {
  return { name, value: (kib / 1024).toFixed(1), unit: "MiB", note };
}

/** 1. The ceiling: a bare Bun.serve in its own process answering "hello". */
export async function measureRaw(ctx: BenchContext): Promise<WrkResult> {
  ctx.progress("raw Bun.serve hello-world");
  const port = freePort();
  const child = spawnChild("hello-server", [process.execPath, "scripts/bench/hello-server.ts"], childEnv({ PORT: String(port) }));
  const stop = ctx.cleanup.defer("stop hello-server", () => stopChild(child));
  try {
    const url = `http://127.0.0.1:${port}/`;
    await waitUntilReady(child, url);
    return await measure(ctx.wrk, { url, method: "GET" }, ctx.seconds, ctx.scratchDir);
  } finally {
    await stop();
  }
}

/**
 * 5 and 6 on PGlite: start-to-ready on a fresh data dir (migrate + demo seed), then on the same dir
 * again; while that second server is up (after its idle RSS is read), the requests-to-other-origins count.
 */
export async function measurePglite(ctx: BenchContext): Promise<{ startup: Row[]; memory: Row[]; origins: Row[] }> {
  const dataDir = await tempDir(ctx, "pglite-");
  const removeDir = ctx.cleanup.defer("remove PGlite data dir", () => rm(dataDir, { recursive: true, force: true }));
  try {
    ctx.progress("PGlite start-up on a fresh data directory");
    const fresh = await startOnce(ctx, { dataDir }, async () => {});
    ctx.progress("PGlite start-up on the existing data directory");
    let idleRssKib = 0;
    let origins: Row[] = [];
    const existing = await startOnce(ctx, { dataDir }, async (server) => {
      await Bun.sleep(IDLE_MS);
      idleRssKib = await readRssKib(server.child.proc.pid);
      origins = await measureOtherOrigins(ctx, server.base);
    });
    return {
      startup: [
        { name: "Start-to-ready, fresh PGlite dir", value: formatCount(fresh), unit: "ms", note: "spawn of the server bundle (as bun run start) → GET /readyz 200; migrates and seeds demo data" },
        { name: "Start-to-ready, existing PGlite dir", value: formatCount(existing), unit: "ms", note: "same dir, second start" },
      ],
      memory: [rssRow("Idle RSS, PGlite server", idleRssKib, `VmRSS ${IDLE_MS / 1000} s after ready (existing dir)`)],
      origins,
    };
  } finally {
    await removeDir();
  }
}

/** Starts Lantern, runs `whileUp` with it, stops it; returns start-to-ready in ms. */
async function startOnce(ctx: BenchContext, options: { dataDir: string }, whileUp: (server: LanternServer) => Promise<void>): Promise<number> {
  let stop: () => Promise<void> = async () => {};
  try {
    const server = await startLantern(options, (child) => {
      stop = ctx.cleanup.defer("stop Lantern (PGlite)", () => stopChild(child));
    });
    await whileUp(server);
    return server.readyMs;
  } finally {
    await stop();
  }
}

/**
 * 2, 3, 4 and 6 on Postgres: a fresh `lantern_bench` database, one super admin and the demo data,
 * NODE_ENV=production; then report completion, after the wrk runs.
 */
export async function measurePostgres(ctx: BenchContext, baseline: WrkResult | null): Promise<{ throughput: Row[]; memory: Row[] }> {
  ctx.progress("Postgres: creating the lantern_bench database and a super admin");
  await recreateBenchDatabase();
  const dropDatabase = ctx.cleanup.defer("drop lantern_bench", dropBenchDatabase);
  const dataDir = await tempDir(ctx, "postgres-");
  const removeDir = ctx.cleanup.defer("remove Postgres-run data dir", () => rm(dataDir, { recursive: true, force: true }));
  let stop: () => Promise<void> = async () => {};
  try {
    const options = { dataDir, databaseUrl: benchDatabaseUrl(), production: true };
    // The CLI migrates before creating the user, so the server's own start finds the schema in place.
    await runCommand("cli create-superadmin", [process.execPath, "scripts/cli.ts", "create-superadmin", "--email", BENCH_EMAIL, "--first-name", "Bench", "--last-name", "Operator", "--password", BENCH_PASSWORD], lanternEnv(options));
    // The demo organisation and its published form, for the reporter journeys: a failure here costs only their rows.
    const seedError = await runCommand("cli seed-demo", [process.execPath, "scripts/cli.ts", "seed-demo"], lanternEnv(options)).then(() => null, (error: unknown) => error);

    const server = await startLantern(options, (child) => {
      stop = ctx.cleanup.defer("stop Lantern (Postgres)", () => stopChild(child));
    });
    await Bun.sleep(IDLE_MS);
    const idleRssKib = await readRssKib(server.child.proc.pid);

    const url = `${server.base}${GRAPHQL_PATH}`;
    const headers = { "Content-Type": "application/json" };
    // Each request is checked once by hand first, so the figures are for answers, not errors.
    const typename = await graphql(server.base, TYPENAME_QUERY);
    if (typename.__typename !== "Query") throw new Error(`{ __typename } answered ${JSON.stringify(typename)}`);
    ctx.progress("Postgres: { __typename }");
    const typenameResult = await measure(ctx.wrk, { url, method: "POST", headers, body: JSON.stringify({ query: TYPENAME_QUERY }) }, ctx.seconds, ctx.scratchDir);

    const cookie = await login(server.base, BENCH_EMAIL, BENCH_PASSWORD);
    const viewer = (await graphql(server.base, VIEWER_QUERY, cookie)).viewer as { email?: string } | null;
    if (viewer?.email !== BENCH_EMAIL) throw new Error("viewer query did not return the signed-in bench user");
    ctx.progress("Postgres: authenticated viewer");
    const viewerResult = await measure(ctx.wrk, { url, method: "POST", headers: { ...headers, Cookie: cookie }, body: JSON.stringify({ query: VIEWER_QUERY }) }, ctx.seconds, ctx.scratchDir);
    const reportRows = await measureReports(ctx, server.base, seedError);

    return {
      throughput: [
        rateRow("GraphQL { __typename } (Postgres)", typenameResult),
        ratioRow("  { __typename } vs raw", typenameResult, baseline),
        rateRow("GraphQL viewer, signed in (Postgres)", viewerResult),
        ratioRow("  viewer vs raw", viewerResult, baseline),
        ...reportRows,
      ],
      memory: [rssRow("Idle RSS, Postgres server", idleRssKib, `VmRSS ${IDLE_MS / 1000} s after ready, before load`)],
    };
  } finally {
    await stop();
    await removeDir();
    await dropDatabase();
  }
}
