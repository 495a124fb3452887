import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { wrapPglite } from "../../../db/client.ts";
import { MIGRATIONS_FOLDER, migrateDatabase } from "../../../db/migrate.ts";
import { pgliteAssets } from "../../../db/pglite-assets.ts";
import { migrationFingerprints, openPglite, preparedClusterIn, readPreparedCluster, sha256, type PreparedClusterFiles } from "../../../db/prepared-cluster.ts";
import { assertNothingPerInstallation, buildCluster, clusterIsCurrent } from "../../../scripts/cluster-build.ts";

/**
 * The prepared cluster (decision 026): a fresh embedded data directory is filled from a tarball made
 * at build time instead of PGlite's initdb, migrated forward from there, and never depends on it:
 * whatever is wrong with the tarball, the directory is initialised as before.
 */
const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

const ALL_MIGRATIONS = migrationFingerprints(MIGRATIONS_FOLDER).map((m) => m.name);
// Built from every migration but the newest: a tarball as it is once a migration has been added since.
let olderMigrations: string;
let clusterDir: string;
let cluster: PreparedClusterFiles;

beforeAll(async () => {
  olderMigrations = tempDir("lantern-migrations-");
  cpSync(MIGRATIONS_FOLDER, olderMigrations, { recursive: true });
  rmSync(join(olderMigrations, ALL_MIGRATIONS.at(-1)!), { recursive: true });
  clusterDir = tempDir("lantern-cluster-");
  await buildCluster(clusterDir, olderMigrations);
  cluster = preparedClusterIn(clusterDir);
}, 120_000);

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function open(dataDir: string, files: PreparedClusterFiles): Promise<{ pg: PGlite; slowInit: string[] }> {
  const slowInit: string[] = [];
  const pg = await openPglite(dataDir, { assets: await pgliteAssets(), migrationsFolder: MIGRATIONS_FOLDER, cluster: files, onSlowInit: (reason) => slowInit.push(reason) });
  return { pg, slowInit };
}

const appliedMigrations = async (pg: PGlite) => (await pg.query<{ name: string }>("select name from public.__lantern_migrations order by name")).rows.map((row) => row.name);

/** What the application can tell about a schema: tables and columns, constraints, indexes, extensions, reference rows. */
async function schemaOf(pg: PGlite): Promise<unknown[]> {
  const queries = [
    "select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns where table_schema = 'public' order by 1, 2",
    "select conrelid::regclass::text as on_table, conname, pg_get_constraintdef(oid) as def from pg_constraint where connamespace = 'public'::regnamespace order by 1, 2",
    "select indexname, indexdef from pg_indexes where schemaname = 'public' order by 1",
    "select extname from pg_extension order by 1",
    "select name, rank, label from roles order by rank",
  ];
  return Promise.all(queries.map(async (text) => (await pg.query(text)).rows));
}

/** A copy of the test's cluster whose tarball is replaced (and the manifest made to vouch for it). */
function clusterWithTarball(bytes: Uint8Array): PreparedClusterFiles {
  const dir = tempDir("lantern-cluster-copy-");
  cpSync(clusterDir, dir, { recursive: true });
  const files = preparedClusterIn(dir);
  writeFileSync(files.tarball, bytes);
  const manifest = JSON.parse(readFileSync(files.manifest, "utf8"));
  writeFileSync(files.manifest, JSON.stringify({ ...manifest, sha256: sha256(bytes) }));
  return files;
}

let preparedSchema: unknown[];

describe("a fresh data directory with a prepared cluster", () => {
  test("is filled from it, migrated forward to the newest migration, holds nothing of an installation, and reopens", async () => {
    const dataDir = join(tempDir("lantern-fresh-"), "pglite");
    const { pg, slowInit } = await open(dataDir, cluster);
    try {
      expect(slowInit).toEqual([]);
      expect(await appliedMigrations(pg)).toEqual(ALL_MIGRATIONS.slice(0, -1));
      await migrateDatabase(wrapPglite(pg));
      expect(await appliedMigrations(pg)).toEqual(ALL_MIGRATIONS);
      // No server secret, organisation or account came with it: the first start makes its own.
      expect((await pg.query<{ n: number }>("select count(*)::int as n from proof_of_work_keys")).rows[0]!.n).toBe(0);
      expect((await pg.query<{ n: number }>("select count(*)::int as n from organisations")).rows[0]!.n).toBe(0);
      // The trigram extension of the report search is there and works.
      expect((await pg.query<{ s: boolean }>("select similarity('lantern', 'lanterns') > 0.5 as s")).rows[0]!.s).toBe(true);
      preparedSchema = await schemaOf(pg);
    } finally {
      await pg.close();
    }
    // Its files are the owner's alone.
    expect(statSync(join(dataDir, "PG_VERSION")).mode & 0o077).toBe(0);
    const again = await open(dataDir, cluster);
    try {
      expect(again.slowInit).toEqual([]);
      expect(await appliedMigrations(again.pg)).toEqual(ALL_MIGRATIONS);
    } finally {
      await again.pg.close();
    }
  }, 120_000);

  test("whose tarball passes the checks but does not extract is cleared and initialised by initdb, to the same schema", async () => {
    // A well-formed archive whose one entry climbs out of the data directory.
    const header = new Uint8Array(512);
    header.set(new TextEncoder().encode("../escaped"), 0);
    header.set(new TextEncoder().encode("00000000000\0"), 124);
    header[156] = "0".charCodeAt(0);
    const files = clusterWithTarball(Bun.gzipSync(new Uint8Array([...header, ...new Uint8Array(1024)])));
    const parent = tempDir("lantern-fallback-");
    const dataDir = join(parent, "pglite");
    const { pg, slowInit } = await open(dataDir, files);
    try {
      expect(slowInit).toHaveLength(1);
      expect(slowInit[0]).toContain("did not load");
      expect(readdirSync(parent)).toEqual(["pglite"]);
      await migrateDatabase(wrapPglite(pg));
      expect(await appliedMigrations(pg)).toEqual(ALL_MIGRATIONS);
      expect(await schemaOf(pg)).toEqual(preparedSchema);
    } finally {
      await pg.close();
    }
  }, 180_000);
});

describe("a prepared cluster is refused, before anything is written, when", () => {
  const refusal = async (files: PreparedClusterFiles, migrationsFolder = MIGRATIONS_FOLDER) => {
    const result = await readPreparedCluster(files, migrationsFolder);
    return "unusable" in result ? result.unusable : null;
  };

  test("none was built", async () => {
    expect(await refusal(preparedClusterIn(join(tmpdir(), "lantern-no-such-cluster")))).toContain("no prepared cluster");
  });

  test("its tarball is damaged or its manifest malformed", async () => {
    const damaged = tempDir("lantern-cluster-damaged-");
    cpSync(clusterDir, damaged, { recursive: true });
    const files = preparedClusterIn(damaged);
    const bytes = readFileSync(files.tarball);
    bytes[bytes.length >> 1]! ^= 0xff;
    writeFileSync(files.tarball, bytes);
    expect(await refusal(files)).toContain("damaged");
    writeFileSync(files.manifest, "{ not json");
    expect(await refusal(files)).toContain("could not be read");
  });

  test("another PGlite made it", async () => {
    const other = tempDir("lantern-cluster-other-");
    cpSync(clusterDir, other, { recursive: true });
    const files = preparedClusterIn(other);
    writeFileSync(files.manifest, JSON.stringify({ ...JSON.parse(readFileSync(files.manifest, "utf8")), pglite: "0.0.1" }));
    expect(await refusal(files)).toContain("PGlite 0.0.1");
  });

  test("a migration it holds has changed since, or is gone", async () => {
    const changed = tempDir("lantern-migrations-changed-");
    cpSync(MIGRATIONS_FOLDER, changed, { recursive: true });
    const first = join(changed, ALL_MIGRATIONS[0]!, "migration.sql");
    writeFileSync(first, `${readFileSync(first, "utf8")}\n-- edited`);
    expect(await refusal(cluster, changed)).toContain("migrations differ");
    expect(await refusal(cluster, tempDir("lantern-migrations-none-"))).toContain("migrations differ");
  });

  test("but it is used as it is when only newer migrations were added", async () => {
    expect(await refusal(cluster)).toBeNull();
  });
});

describe("building the prepared cluster", () => {
  test("it is current only for the migrations it was built from, and while its tarball is intact", () => {
    expect(clusterIsCurrent(clusterDir, olderMigrations)).toBe(true);
    expect(clusterIsCurrent(clusterDir, MIGRATIONS_FOLDER)).toBe(false);
    const damaged = tempDir("lantern-cluster-stale-");
    cpSync(clusterDir, damaged, { recursive: true });
    const bytes = readFileSync(preparedClusterIn(damaged).tarball);
    writeFileSync(preparedClusterIn(damaged).tarball, bytes.subarray(0, bytes.length - 1));
    expect(clusterIsCurrent(damaged, olderMigrations)).toBe(false);
    expect(clusterIsCurrent(tempDir("lantern-cluster-none-"), olderMigrations)).toBe(false);
  });

  test("rows of any installation's own (a server secret) fail it", async () => {
    const { pg } = await open(join(tempDir("lantern-rows-"), "pglite"), cluster);
    try {
      await assertNothingPerInstallation(pg);
      await pg.query("insert into proof_of_work_keys (id, secret) values (1, 'not to be shipped')");
      await expect(assertNothingPerInstallation(pg)).rejects.toThrow("proof_of_work_keys");
    } finally {
      await pg.close();
    }
  }, 60_000);
});
