import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Hono } from "hono";
import { sql } from "drizzle-orm";
import { MIGRATIONS_FOLDER } from "../../db/migrate.ts";
import { resultRows } from "../../db/results.ts";
import type { Services } from "../context.ts";
import type { AppEnv } from "./types.ts";

/** A database that does not answer within this is as good as unreachable to a load balancer. */
const READY_TIMEOUT_MS = 2_000;
const MIGRATIONS_TABLE = "__lantern_migrations";

/**
 * /healthz: the process answers (no database: a slow database must not get a live process restarted).
 * /readyz: it can also reach its database, and every migration this build ships is applied there, so
 * an instance is sent traffic only once its schema is current. Both answer one line and nothing else:
 * they are public, and say nothing about the data.
 */
export function healthRoutes(services: Services, migrationsFolder = MIGRATIONS_FOLDER) {
  const app = new Hono<AppEnv>();
  let shipped: string[] | null = null;
  app.get("/healthz", (c) => c.text("ok"));
  app.get("/readyz", async (c) => {
    c.header("Cache-Control", "no-store");
    try {
      shipped ??= shippedMigrations(migrationsFolder);
    } catch {
      return c.text("not ready: the migrations this build ships cannot be read", 503);
    }
    const expected = shipped;
    const reason = await withTimeout(unreadyReason(services, expected), READY_TIMEOUT_MS, "not ready: the database did not answer in time");
    return reason ? c.text(reason, 503) : c.text("ready");
  });
  return app;
}

/** The folders drizzle's migrator applies: those holding a migration.sql, by name. */
function shippedMigrations(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => existsSync(join(folder, name, "migration.sql")))
    .sort();
}

async function unreadyReason(services: Services, expected: string[]): Promise<string | null> {
  let applied: Set<string>;
  try {
    const rows = resultRows<{ name: string | null }>(await services.database.db.execute(sql`select name from ${sql.identifier("public")}.${sql.identifier(MIGRATIONS_TABLE)}`));
    applied = new Set(rows.map((row) => row.name ?? ""));
  } catch (error) {
    // Postgres' undefined_table: reachable, but never migrated.
    return pgCode(error) === "42P01" ? "not ready: the database has not been migrated" : "not ready: the database is unavailable";
  }
  const missing = expected.filter((name) => !applied.has(name)).length;
  if (missing > 0) return `not ready: ${missing} migration${missing === 1 ? " is" : "s are"} not applied`;
  return null;
}

function pgCode(error: unknown): string | null {
  for (let current = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return null;
}

function withTimeout<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
