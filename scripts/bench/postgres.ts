import postgres from "postgres";

/** The only database the bench creates or drops; the name is fixed so no other database is touched. */
export const BENCH_DATABASE = "lantern_bench";

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
