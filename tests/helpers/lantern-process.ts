import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { openDatabase, type Database } from "../../db/client.ts";
import { migrateDatabase } from "../../db/migrate.ts";
import { seedDemo } from "../../db/seed/demo.ts";
import { cloneTemplate, usingPostgres, type TestDatabase } from "../setup/template.ts";
import { TEST_MASTER_KEY } from "./master-key.ts";
import { freePort, waitForReady } from "./processes.ts";
import { testKeyRing } from "./sealed-text.ts";
import type { TestServer } from "./server.ts";

/**
 * Lantern as an operator runs it: `bun api/main.ts` in its own process, so that signals and
 * `kill -9` reach a real server. It serves the demo: on Postgres a fresh copy of the template, on
 * PGlite the files in DATA_DIR/pglite, as `bun run start` opens them.
 */

const MAIN = join(import.meta.dir, "..", "..", "api", "main.ts");

/** Every process started here and not yet gone: a failed test must not leave a server running. */
const running = new Set<Subprocess>();

export interface LanternHome {
  dataDir: string;
  env: Record<string, string>;
  /**
   * Runs `work` on the home's database. On PGlite only while no server runs on it (the files are
   * one process's at a time); on Postgres at any time.
   */
  withDatabase<T>(work: (db: Database) => Promise<T>): Promise<T>;
  remove(): Promise<void>;
}

/** A data directory (and on Postgres a seeded database) that processes can be started on, one after the other or side by side. */
export async function lanternHome(extraEnv: Record<string, string> = {}): Promise<LanternHome> {
  const dataDir = mkdtempSync(join(tmpdir(), "lantern-process-"));
  const database: TestDatabase | null = usingPostgres() ? await cloneTemplate() : null;
  const withDatabase = async <T>(work: (db: Database) => Promise<T>): Promise<T> => {
    if (database) return work(database.handle.db);
    const handle = await openDatabase({ kind: "pglite", dataDir: join(dataDir, "pglite") });
    try {
      await migrateDatabase(handle);
      return await work(handle.db);
    } finally {
      await handle.close();
    }
  };
  await withDatabase(async (db) => {
    testKeyRing(db);
    await seedDemo(db);
  });
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    APP_DOMAIN: "localhost",
    MASTER_KEY: TEST_MASTER_KEY,
    LOG_LEVEL: "error",
    ...(database?.url ? { DATABASE_URL: database.url } : {}),
    ...extraEnv,
  };
  return {
    dataDir,
    env,
    withDatabase,
    async remove() {
      for (const child of running) child.kill(9);
      await Promise.all([...running].map((child) => child.exited));
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface LanternProcess {
  child: Subprocess<"ignore", "ignore", "pipe">;
  port: number;
  origin: string;
  /** fetch addressing a host face by the Host header, as TestServer.fetch does. */
  fetch(path: string, init?: RequestInit & { host?: string }): Promise<Response>;
  /** What the process wrote to stderr, once it has exited. */
  stderr(): Promise<string>;
}

/** Starts a server process on the home and waits until it is ready (60 s at most). */
export async function spawnLantern(home: LanternHome, options: { port?: number; env?: Record<string, string> } = {}): Promise<LanternProcess> {
  const port = options.port ?? (await freePort());
  const env: Record<string, string | undefined> = { ...process.env, ...home.env, PORT: String(port), ...options.env };
  if (!home.env.DATABASE_URL) delete env.DATABASE_URL;
  const child = Bun.spawn(["bun", MAIN], { env, stdout: "ignore", stderr: "pipe", stdin: "ignore" });
  running.add(child);
  void child.exited.then(() => running.delete(child));
  const origin = `http://127.0.0.1:${port}`;
  const stderr = new Response(child.stderr).text();
  if (!(await waitForReady(origin, 60_000))) {
    child.kill(9);
    throw new Error(`the server did not become ready: ${await stderr}`);
  }
  return { child, port, origin, fetch: fetchOnPort(port), stderr: () => stderr };
}

/** fetch to whatever listens on the port, addressing a host face by the Host header. */
export function fetchOnPort(port: number): LanternProcess["fetch"] {
  return (path, init = {}) => {
    const { host, ...rest } = init;
    const headers = new Headers(rest.headers);
    headers.set("Host", `${host ?? "localhost"}:${port}`);
    return fetch(`http://127.0.0.1:${port}${path}`, { ...rest, headers, redirect: "manual" });
  };
}

/** The process seen as a TestServer by the clients that only fetch or open sockets (ReporterClient, StaffClient, rawSocket). */
export function fetchingServer(target: { port: number; fetch: LanternProcess["fetch"] }): TestServer {
  return { port: target.port, fetch: (path: string, init?: RequestInit & { host?: string }) => target.fetch(path, init) } as unknown as TestServer;
}
