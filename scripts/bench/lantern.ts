import { randomBytes } from "node:crypto";
import { ensureServerBuilt, SERVER_BUNDLE } from "../server-build.ts";
import { childEnv, freePort, spawnChild, waitUntilReady, type Child } from "./processes.ts";

export const GRAPHQL_PATH = "/api/gql/query";
export const TYPENAME_QUERY = "{ __typename }";
export const VIEWER_QUERY = "{ viewer { id email role { name } } }";

export interface LanternServer {
  child: Child;
  /** Loopback base URL; the bench never addresses the server any other way. */
  base: string;
  readyMs: number;
}

export interface LanternOptions {
  dataDir: string;
  /** Absent means embedded PGlite in dataDir (which seeds demo data on first start). */
  databaseUrl?: string;
  production?: boolean;
  /** Further variables, such as the translation provider the bench starts on loopback. */
  env?: Record<string, string>;
}

/** Made up for the run, unless BENCH_MASTER_KEY names one (index.ts): a kept database opens only with its key. */
const BENCH_MASTER_KEY = process.env.BENCH_MASTER_KEY || randomBytes(32).toString("base64");

/** The environment the server and `bun scripts/cli.ts` get: only what the bench chooses. */
export function lanternEnv(options: LanternOptions, port?: number): Record<string, string> {
  return childEnv({
    DATA_DIR: options.dataDir,
    LOG_LEVEL: "error",
    ...(port === undefined ? {} : { PORT: String(port) }),
    // A bench database is thrown away afterwards: its master key is made up for the run.
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl, MASTER_KEY: BENCH_MASTER_KEY } : {}),
    ...(options.production ? { NODE_ENV: "production" } : {}),
    ...options.env,
  });
}

/**
 * Spawns the server as `bun run start` runs it, from the server bundle (built first if stale, before
 * the clock starts), and waits for /readyz; the caller stops the child (also on failure).
 */
export async function startLantern(options: LanternOptions, onSpawn: (child: Child) => void): Promise<LanternServer> {
  await ensureServerBuilt();
  const port = freePort();
  const child = spawnChild("lantern", [process.execPath, SERVER_BUNDLE], lanternEnv(options, port));
  onSpawn(child);
  const base = `http://127.0.0.1:${port}`;
  const readyMs = await waitUntilReady(child, `${base}/readyz`);
  return { child, base, readyMs };
}

/** One GraphQL POST, as wrk will send it; throws on HTTP or GraphQL errors so a bench never measures failures. */
export async function graphql(base: string, query: string, cookie?: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${GRAPHQL_PATH}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
    body: JSON.stringify({ query }),
    signal: AbortSignal.timeout(10_000),
  });
  const payload = (await response.json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };
  if (!response.ok || payload.errors?.length || !payload.data) {
    throw new Error(`GraphQL ${query} answered ${response.status}: ${payload.errors?.[0]?.message ?? "no data"}`);
  }
  return payload.data;
}

/** Signs in as staff and returns the `lantern_session=...` pair to send as a Cookie header. */
export async function login(base: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password, verifyToken: "" }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`login answered ${response.status}: ${text.slice(0, 200)}`);
  const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith("lantern_session="));
  if (!session) throw new Error("login succeeded but set no lantern_session cookie");
  // Only name=value goes back in a Cookie header; the attributes after ";" are for browsers.
  return session.split(";")[0]!;
}
