import postgres from "postgres";

/**
 * The only database the bench creates or drops. BENCH_DATABASE may name another, but only one that
 * starts with "lantern_bench", so no other database is ever touched (two benches can run side by side).
 */
export const BENCH_DATABASE = benchDatabaseName(process.env.BENCH_DATABASE);

function benchDatabaseName(name: string | undefined): string {
  if (name === undefined || name === "") return "lantern_bench";
  if (!/^lantern_bench[a-z0-9_]{0,40}$/.test(name)) {
    console.error(`BENCH_DATABASE must start with "lantern_bench" and hold only a-z, 0-9 and _ (got "${name}")`);
    process.exit(78);
  }
  return name;
}

/** Where to connect to run CREATE/DROP DATABASE (any existing database on the same server will do). */
export function adminUrl(): string {
  return process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
}

/** The admin URL with the bench database's name in place of the admin database's. */
export function benchDatabaseUrl(): string {
  const url = new URL(adminUrl());
  url.pathname = `/${BENCH_DATABASE}`;
  return url.toString();
}

async function withAdmin(work: (sql: postgres.Sql) => Promise<unknown>): Promise<void> {
  // One connection, and no notices ("does not exist, skipping") in the bench's output.
  const sql = postgres(adminUrl(), { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await work(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** FORCE ends sessions a crashed earlier run may have left connected (PostgreSQL 13+). */
export async function dropBenchDatabase(): Promise<void> {
  await withAdmin((sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`));
}

/** A fresh, empty database: dropped first if a previous run left one behind. */
export async function recreateBenchDatabase(): Promise<void> {
  await withAdmin(async (sql) => {
    await sql.unsafe(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
    await sql.unsafe(`CREATE DATABASE ${BENCH_DATABASE}`);
  });
}
