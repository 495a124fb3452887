import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { seedDemo } from "../../db/seed/demo.ts";
import { cloneTemplate, usingPostgres, type TestDatabase } from "../setup/template.ts";
import { TEST_MASTER_KEY } from "./master-key.ts";
import { freePort, waitForReady } from "./processes.ts";
import type { TestServer } from "./server.ts";

/**
 * Lantern as an operator runs it: `bun api/main.ts` in its own process, so that signals and
 * `kill -9` reach a real server. On Postgres it serves a fresh copy of the template with the demo
 * seeded; on PGlite it opens DATA_DIR/pglite on disk and seeds the demo itself.
 */

const MAIN = join(import.meta.dir, "..", "..", "api", "main.ts");

export interface LanternHome {
  dataDir: string;
  /** The test's own connection to the Postgres database (null on PGlite: the server owns the files). */
  database: TestDatabase | null;
  env: Record<string, string>;
  remove(): Promise<void>;
}

/** A data directory (and on Postgres a seeded database) that processes can be started on, one after the other or side by side. */
export async function lanternHome(extraEnv: Record<string, string> = {}): Promise<LanternHome> {
  const dataDir = mkdtempSync(join(tmpdir(), "lantern-process-"));
  const database = usingPostgres() ? await cloneTemplate() : null;
  if (database) await seedDemo(database.handle.db);
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
    database,
    env,
    async remove() {
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
  const origin = `http://127.0.0.1:${port}`;
  const stderr = new Response(child.stderr).text();
  if (!(await waitForReady(origin, 60_000))) {
    child.kill(9);
    throw new Error(`the server did not become ready: ${await stderr}`);
  }
  return {
    child,
    port,
    origin,
    fetch(path, init = {}) {
      const { host, ...rest } = init;
      const headers = new Headers(rest.headers);
      headers.set("Host", `${host ?? "localhost"}:${port}`);
      return fetch(`${origin}${path}`, { ...rest, headers, redirect: "manual" });
    },
    stderr: () => stderr,
  };
}

/** The process seen as a TestServer by the clients that only fetch or open sockets (ReporterClient, StaffClient, rawSocket). */
export function fetchingServer(target: { port: number; fetch: LanternProcess["fetch"] }): TestServer {
  return { port: target.port, fetch: (path: string, init?: RequestInit & { host?: string }) => target.fetch(path, init) } as unknown as TestServer;
}
