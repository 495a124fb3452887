import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BootOptions, startLantern, type RunningLantern } from "../../api/boot.ts";
import { parseConfig } from "../../api/config.ts";
import { TEST_MASTER_KEY } from "./master-key.ts";
import type { Database } from "../../db/client.ts";
import { seedDemo } from "../../db/seed/demo.ts";
import { cloneTemplate, usingPostgres } from "../setup/template.ts";

export interface TestServer {
  lantern: RunningLantern;
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  db: Database;
  /** A postgres URL for this test's database, when the suite runs on Postgres. */
  databaseUrl: string | null;
  dataDir: string;
  /** fetch against the server, addressing a host face by the Host header (e.g. "demo.localhost"). */
  fetch(path: string, init?: RequestInit & { host?: string }): Promise<Response>;
  stop(): Promise<void>;
}

/**
 * Boots a real Lantern on a random port over a fresh copy of the migrated template database, or,
 * given `databaseUrl` (Postgres only), over another server's database: a second instance, for
 * events that must cross instances. That database stays its first server's to drop.
 */
export async function startTestServer(
  options: { env?: Record<string, string>; siteRoot?: string; databaseUrl?: string; embeddedOnDisk?: boolean; anonymousSockets?: BootOptions["anonymousSockets"] } = {},
): Promise<TestServer> {
  // embeddedOnDisk: without Postgres, the server opens its own PGlite in DATA_DIR/pglite, as `bun run start` does (for tests of what lands on disk).
  const onDisk = options.embeddedOnDisk && !usingPostgres();
  const database = options.databaseUrl || onDisk ? { url: options.databaseUrl ?? null, pglite: null, drop: async () => {} } : await cloneTemplate();
  const dataDir = mkdtempSync(join(tmpdir(), "lantern-test-"));
  const config = parseConfig({
    DATA_DIR: dataDir,
    APP_DOMAIN: "localhost",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    NODE_ENV: "test",
    MASTER_KEY: TEST_MASTER_KEY,
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...options.env,
  });
  const lantern = await startLantern(config, {
    port: 0,
    hostname: "127.0.0.1",
    ...(database.pglite ? { pglite: database.pglite } : {}),
    ...(options.siteRoot ? { siteRoot: options.siteRoot } : {}),
    ...(options.anonymousSockets ? { anonymousSockets: options.anonymousSockets } : {}),
  });
  const port = lantern.server.port!;
  const origin = `http://127.0.0.1:${port}`;
  return {
    lantern,
    origin,
    port,
    db: lantern.services.database.db,
    databaseUrl: database.url,
    dataDir,
    fetch(path, init = {}) {
      const { host, ...rest } = init;
      const headers = new Headers(rest.headers);
      headers.set("Host", `${host ?? "localhost"}:${port}`);
      return fetch(`${origin}${path}`, { ...rest, headers, redirect: "manual" });
    },
    async stop() {
      await lantern.stop();
      // On PGlite the server owned (and closed) the database; on Postgres drop this file's database.
      if (database.url) await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The next start over a server's database and `dataDir` (the DATA_DIR it was started with), as after
 * an upgrade. On PGlite one process owns the directory, so the first server stops first; on Postgres
 * it keeps running beside the new one.
 */
export async function nextStart(first: TestServer, dataDir: string): Promise<TestServer> {
  if (usingPostgres()) return startTestServer({ databaseUrl: first.databaseUrl!, env: { DATA_DIR: dataDir } });
  await first.stop();
  return startTestServer({ embeddedOnDisk: true, env: { DATA_DIR: dataDir } });
}

/**
 * Two instances on one seeded demo database, for promises that must hold across instances (a change
 * on one seen at once on the other). Two need Postgres; on PGlite both names are the same instance.
 */
export async function startInstancePair(): Promise<{ first: TestServer; second: TestServer; stop(): Promise<void> }> {
  const first = await startTestServer();
  await seedDemo(first.db);
  const second = usingPostgres() ? await startTestServer({ databaseUrl: first.databaseUrl! }) : first;
  return {
    first,
    second,
    async stop() {
      if (second !== first) await second.stop();
      await first.stop();
    },
  };
}
