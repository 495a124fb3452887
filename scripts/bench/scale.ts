/**
 * Lantern at the size of a large organisation, on Postgres: a fresh lantern_bench database with
 * the demo data, then many more reports (report-seed.ts). First the report list's latency at a
 * constant rate (report-list-latency.ts) and a backup of it all (backup.ts), then, on a freshly started server so its memory figure
 * starts clean, chat delivery with many sockets open (chat-delivery.ts). Each part that fails
 * becomes rows saying so; the other still runs.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { MAX_SOCKETS_PER_SESSION } from "../../api/graphql/socket-limits.ts";
import { measureBackup } from "./backup.ts";
import { measureChatDelivery } from "./chat-delivery.ts";
import { FORM_WIDGETS, measureFormSave } from "./form-save.ts";
import { measureTranslation, startBenchProvider } from "./translation.ts";
import { lanternEnv, login, startLantern, type LanternOptions, type LanternServer } from "./lantern.ts";
import { benchDatabaseUrl, dropBenchDatabase, recreateBenchDatabase } from "./postgres.ts";
import { runCommand, stopChild } from "./processes.ts";
import { measureListLatency } from "./report-list-latency.ts";
import { seedReports } from "./report-seed.ts";
import type { BenchContext } from "./scenarios.ts";
import { failedRow, formatCount, type Row } from "./table.ts";

/** The console user both parts act as: the demo organisation's owner sees every report in it. */
const OWNER_EMAIL = "owner@demo.test";
const SUPER_ADMIN_EMAIL = "admin@lantern.test";
/** Idle time before the chat server's memory is read, as the other RSS figures wait. */
const IDLE_MS = 2000;
/** Saves of the large form measured: enough for a p99 that is not just the maximum. */
const FORM_SAVES = 200;
/** Cached translateData requests timed after the first: enough for a p99 that means something. */
const TRANSLATION_CACHED_REQUESTS = 200;

export interface ScaleSettings {
  /** Reports seeded into the demo organisation for the list. */
  listReports: number;
  listRate: number;
  /** Sockets open during the chat run: half reporters, half staff. */
  chatSockets: number;
  chatRate: number;
  /** Staff sockets that also hold the console's sidebar counts subscription. */
  chatSidebars: number;
}

/** Starts Lantern on the bench database, runs `work`, stops it (also when `work` fails). */
async function withServer<T>(ctx: BenchContext, options: LanternOptions, work: (server: LanternServer) => Promise<T>): Promise<T> {
  let stop: () => Promise<void> = async () => {};
  try {
    const server = await startLantern(options, (child) => {
      stop = ctx.cleanup.defer("stop Lantern (Postgres, at scale)", () => stopChild(child));
    });
    return await work(server);
  } finally {
    await stop();
  }
}

/** translateData of a large form, with a LibreTranslate-protocol provider on loopback for this run. */
async function translationRows(ctx: BenchContext, options: LanternOptions): Promise<Row[]> {
  const { provider, env } = await startBenchProvider();
  const stopProvider = ctx.cleanup.defer("stop the loopback translation provider", () => provider.stop());
  try {
    return await withServer(ctx, { ...options, env }, async (server) =>
      measureTranslation({
        base: server.base,
        cookie: await login(server.base, OWNER_EMAIL, DEMO_PASSWORD),
        superAdminCookie: await login(server.base, SUPER_ADMIN_EMAIL, DEMO_PASSWORD),
        provider,
        cachedRequests: TRANSLATION_CACHED_REQUESTS,
        progress: ctx.progress,
      }),
    );
  } finally {
    await stopProvider();
  }
}

async function timed<T>(ctx: BenchContext, what: string, work: () => Promise<T>): Promise<T> {
  const startedAt = performance.now();
  const result = await work();
  ctx.progress(`${what} took ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  return result;
}

async function listRows(ctx: BenchContext, options: LanternOptions, settings: ScaleSettings): Promise<Row[]> {
  const reports = formatCount(settings.listReports);
  ctx.progress(`Postgres at scale: seeding ${reports} completed reports into the demo organisation`);
  const seeded = await timed(ctx, `seeding ${reports} reports`, () => seedReports(options.databaseUrl!, settings.listReports, "history"));
  return withServer(ctx, options, async (server) =>
    measureListLatency({
      base: server.base,
      cookie: await login(server.base, OWNER_EMAIL, DEMO_PASSWORD),
      reports: settings.listReports,
      searchText: seeded.reportIds[Math.floor(seeded.reportIds.length / 2)]!,
      rate: settings.listRate,
      seconds: ctx.seconds,
      progress: ctx.progress,
    }),
  );
}

async function chatRows(ctx: BenchContext, options: LanternOptions, settings: ScaleSettings): Promise<Row[]> {
  const pairs = Math.max(1, Math.floor(settings.chatSockets / 2));
  ctx.progress(`Postgres at scale: seeding ${pairs} open reports for the chat`);
  const seeded = await seedReports(options.databaseUrl!, pairs, "open-chats", OWNER_EMAIL);
  return withServer(ctx, options, async (server) => {
    const sessions = Math.ceil(pairs / MAX_SOCKETS_PER_SESSION);
    const staffCookies: string[] = [];
    for (let i = 0; i < sessions; i += 1) staffCookies.push(await login(server.base, OWNER_EMAIL, DEMO_PASSWORD));
    // Its memory before the sockets is read next, once start-up garbage has had a chance to go.
    await Bun.sleep(IDLE_MS);
    return measureChatDelivery({
      base: server.base,
      serverPid: server.child.proc.pid,
      databaseUrl: options.databaseUrl!,
      organisationId: seeded.organisationId,
      submissionIds: seeded.submissionIds,
      staffCookies,
      sidebars: settings.chatSidebars,
      rate: settings.chatRate,
      seconds: ctx.seconds,
      progress: ctx.progress,
    });
  });
}

/** A part's rows, or one row saying why it could not be measured. */
async function part(name: string, unit: string, work: () => Promise<Row[]>): Promise<Row[]> {
  try {
    return await work();
  } catch (error) {
    console.error(`bench: ${name} failed:`, error);
    return [failedRow(name, unit, error)];
  }
}

export async function measureAtScale(ctx: BenchContext, settings: ScaleSettings): Promise<Row[]> {
  ctx.progress("Postgres at scale: a fresh lantern_bench database with the demo data");
  await recreateBenchDatabase();
  // BENCH_KEEP_DATABASE=1 (index.ts) leaves it for investigation; the next run recreates it anyway.
  const keep = process.env.BENCH_KEEP_DATABASE === "1";
  const dropDatabase = keep ? async () => ctx.progress("BENCH_KEEP_DATABASE=1: lantern_bench is kept") : ctx.cleanup.defer("drop lantern_bench", dropBenchDatabase);
  const dataDir = await mkdtemp(join(ctx.scratchDir, "scale-"));
  const removeDir = ctx.cleanup.defer("remove the at-scale data dir", () => rm(dataDir, { recursive: true, force: true }));
  try {
    const options: LanternOptions = { dataDir, databaseUrl: benchDatabaseUrl(), production: true };
    // The CLI migrates first, so the servers find the schema and the demo in place.
    await runCommand("cli seed-demo", [process.execPath, "scripts/cli.ts", "seed-demo"], lanternEnv(options));
    // BENCH_ONLY=list, chat or form (index.ts) runs just that part.
    const only = process.env.BENCH_ONLY;
    const formSave = only && only !== "form"
      ? []
      : await part(`Saving a ${FORM_WIDGETS}-widget form, p50 (Postgres)`, "ms", () =>
          withServer(ctx, options, async (server) =>
            measureFormSave({ base: server.base, cookie: await login(server.base, OWNER_EMAIL, DEMO_PASSWORD), saves: FORM_SAVES, progress: ctx.progress }),
          ),
        );
    const translation = only && only !== "form" ? [] : await part(`translateData, ${FORM_WIDGETS}-widget form, first (Postgres)`, "ms", () => translationRows(ctx, options));
    const list = only && only !== "list" ? [] : await part(`Report list, ${formatCount(settings.listReports)} reports, p99 (Postgres)`, "ms", () => listRows(ctx, options, settings));
    // Right after the list, while the database holds its reports: the backup the README tells operators to take.
    const backup = only && only !== "list" ? [] : await part(`Backup, ${formatCount(settings.listReports)} reports (Postgres)`, "s", () => measureBackup(ctx, options, settings.listReports));
    // The chat alone still runs over the list's reports: the sidebar counts it may hold cost what they cost at that size.
    if (only === "chat") await timed(ctx, `seeding ${formatCount(settings.listReports)} reports`, () => seedReports(options.databaseUrl!, settings.listReports, "history"));
    const chat = only && only !== "chat" ? [] : await part(`Chat delivery, ${formatCount(settings.chatSockets)} sockets, p99 (Postgres)`, "ms", () => chatRows(ctx, options, settings));
    return [...formSave, ...translation, ...list, ...backup, ...chat];
  } finally {
    await removeDir();
    await dropDatabase();
  }
}
