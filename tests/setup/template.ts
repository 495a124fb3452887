import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { createHash, randomBytes } from "node:crypto";
import { openDatabase, wrapPglite, type DatabaseHandle } from "../../db/client.ts";
import { pgliteExtensions } from "../../db/pglite-assets.ts";
import { migrateDatabase } from "../../db/migrate.ts";

/**
 * Test databases. Without DATABASE_URL every test file gets a PGlite cloned from one migrated
 * template (a fresh PGlite costs seconds, a clone half a second). With DATABASE_URL every file
 * gets its own Postgres database created from a migrated template database.
 */
// One template per checkout, so two checkouts on one machine can run their suites on one Postgres at once.
const TEMPLATE_DB = `lantern_test_template_${createHash("sha256").update(process.cwd()).digest("hex").slice(0, 8)}`;

interface TemplateState {
  pgliteDump?: Blob;
  postgresTemplate?: boolean;
}

const state: TemplateState = ((globalThis as Record<string, unknown>).__lanternTemplate ??= {}) as TemplateState;

export const usingPostgres = (): boolean => Boolean(process.env.DATABASE_URL);

export async function prepareTemplate(): Promise<void> {
  if (usingPostgres()) {
    if (state.postgresTemplate) return;
    const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`drop database if exists ${TEMPLATE_DB} with (force)`);
      await admin.unsafe(`create database ${TEMPLATE_DB}`);
    } finally {
      await admin.end();
    }
    const handle = await openDatabase({ kind: "postgres", url: databaseUrl(TEMPLATE_DB), max: 2 });
    await migrateDatabase(handle);
    await handle.close();
    state.postgresTemplate = true;
    return;
  }
  if (state.pgliteDump) return;
  const pg = await PGlite.create({ extensions: await pgliteExtensions() });
  const handle = wrapPglite(pg);
  await migrateDatabase(handle);
  state.pgliteDump = await pg.dumpDataDir("gzip");
  await handle.close();
}

export function databaseUrl(name: string): string {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

export interface TestDatabase {
  handle: DatabaseHandle;
  /** A postgres:// URL of this database, when on Postgres (for a second server instance). */
  url: string | null;
  /** A PGlite to boot the server on, when embedded. */
  pglite: PGlite | null;
  drop(): Promise<void>;
}

/** A fresh, migrated, empty database for one test file. */
export async function cloneTemplate(): Promise<TestDatabase> {
  await prepareTemplate();
  if (usingPostgres()) {
    const name = `lantern_t_${randomBytes(6).toString("hex")}`;
    const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name} template ${TEMPLATE_DB}`);
    await admin.end();
    const url = databaseUrl(name);
    const handle = await openDatabase({ kind: "postgres", url, max: 5 });
    return {
      handle,
      url,
      pglite: null,
      async drop() {
        await handle.close();
        const cleanup = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
        await cleanup.unsafe(`drop database if exists ${name} with (force)`);
        await cleanup.end();
      },
    };
  }
  const pglite = await PGlite.create({ loadDataDir: state.pgliteDump!, extensions: await pgliteExtensions() });
  const handle = wrapPglite(pglite);
  return { handle, url: null, pglite, drop: () => handle.close() };
}
