import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
// Read from the package itself, so a tarball made by another PGlite (another Postgres build) is never loaded.
import pglitePackage from "../node_modules/@electric-sql/pglite/package.json" with { type: "json" };

/**
 * A prepared cluster: a tarball of a PGlite data directory that has been initialised and migrated
 * but holds nothing of any installation (no organisation, no user, no secret), made at build time
 * by scripts/cluster-build.ts. A fresh data directory is filled from it in about half a second
 * instead of PGlite's initdb, which takes several (decision 026). Everything here is an
 * optimisation: when the tarball is missing, stale or unreadable, the caller runs initdb as before.
 */
export const DEFAULT_PREPARED_CLUSTER_DIR = fileURLToPath(new URL("../dist/pglite-cluster", import.meta.url));
export const CLUSTER_TARBALL = "cluster.tar.gz";
export const CLUSTER_MANIFEST = "manifest.json";
export const PGLITE_VERSION: string = pglitePackage.version;

/** The tarball and its manifest: files in a checkout's build, or embedded in the single executable. */
export interface PreparedClusterFiles {
  tarball: string;
  manifest: string;
}

export const preparedClusterIn = (dir: string): PreparedClusterFiles => ({ tarball: join(dir, CLUSTER_TARBALL), manifest: join(dir, CLUSTER_MANIFEST) });

export interface MigrationFingerprint {
  name: string;
  sha256: string;
}

export interface ClusterManifest {
  pglite: string;
  /** The migrations applied in the tarball, in order. */
  migrations: MigrationFingerprint[];
  /** Of the tarball's bytes: a truncated or damaged file is refused before PGlite writes anything. */
  sha256: string;
}

/** Each migration as drizzle's migrator sees it: the folders holding a migration.sql, by name, with the SQL's hash. */
export function migrationFingerprints(migrationsFolder: string): MigrationFingerprint[] {
  return readdirSync(migrationsFolder)
    .filter((name) => existsSync(join(migrationsFolder, name, "migration.sql")))
    .sort((a, b) => a.localeCompare(b))
    .map((name) => ({ name, sha256: sha256(readFileSync(join(migrationsFolder, name, "migration.sql"))) }));
}

export const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

function parseManifest(text: string): ClusterManifest | null {
  const value: unknown = JSON.parse(text);
  if (typeof value !== "object" || value === null) return null;
  const { pglite, migrations, sha256: hash } = value as Record<string, unknown>;
  if (typeof pglite !== "string" || typeof hash !== "string" || !Array.isArray(migrations)) return null;
  const valid = migrations.every((m: unknown) => typeof m === "object" && m !== null && typeof (m as MigrationFingerprint).name === "string" && typeof (m as MigrationFingerprint).sha256 === "string");
  return valid ? { pglite, migrations: migrations as MigrationFingerprint[], sha256: hash } : null;
}

/**
 * The tarball, when it can stand in for initdb: made by this PGlite, its migrations the first of
 * ours, unchanged (newer ones are applied by the ordinary migration that follows), and intact.
 * Otherwise a reason why not.
 */
export async function readPreparedCluster(files: PreparedClusterFiles, migrationsFolder: string): Promise<{ tarball: Uint8Array<ArrayBuffer> } | { unusable: string }> {
  try {
    if (!(await Bun.file(files.manifest).exists())) return { unusable: "no prepared cluster was built" };
    const manifest = parseManifest(await Bun.file(files.manifest).text());
    if (!manifest) return { unusable: "its manifest is malformed" };
    if (manifest.pglite !== PGLITE_VERSION) return { unusable: `it was made by PGlite ${manifest.pglite}` };
    const ours = migrationFingerprints(migrationsFolder);
    const prefix = manifest.migrations.length <= ours.length && manifest.migrations.every((m, i) => m.name === ours[i]!.name && m.sha256 === ours[i]!.sha256);
    if (!prefix) return { unusable: "its migrations differ from this version's" };
    const bytes = new Uint8Array(await Bun.file(files.tarball).arrayBuffer());
    if (sha256(bytes) !== manifest.sha256) return { unusable: "the tarball is damaged" };
    return { tarball: bytes };
  } catch (error) {
    return { unusable: `it could not be read (${error instanceof Error ? error.message : String(error)})` };
  }
}

const BLOCK = 512;

/**
 * Writes the files of a tarball from PGlite's `dumpDataDir` into an empty directory. PGlite can load
 * one itself (`loadDataDir`), but through its emulated file system that costs 1.5 s of CPU for this
 * cluster's 1,200 files; written directly it is a tenth of that. Files are the owner's alone (PGlite
 * writes them world-readable), since they will hold reports.
 */
export function extractCluster(gzipped: Uint8Array<ArrayBuffer>, dataDir: string): void {
  const tar = Bun.gunzipSync(gzipped);
  const decoder = new TextDecoder();
  const text = (offset: number, length: number) => {
    const bytes = tar.subarray(offset, offset + length);
    const end = bytes.indexOf(0);
    if (end === -1 && length === 100) throw new Error("a name in the tarball is too long to be one of PGlite's");
    return decoder.decode(end === -1 ? bytes : bytes.subarray(0, end));
  };
  for (let offset = 0; offset + BLOCK <= tar.length; ) {
    const name = text(offset, 100);
    if (name === "") break; // the archive's closing blocks
    const size = Number.parseInt(text(offset + 124, 12).trim() || "0", 8);
    const type = String.fromCharCode(tar[offset + 156]!);
    const segments = name.split("/").filter((segment) => segment !== "" && segment !== ".");
    if (segments.length === 0 || segments.includes("..") || !Number.isSafeInteger(size) || size < 0) throw new Error(`the tarball's entry "${name}" is not a data-directory file`);
    const path = join(dataDir, ...segments);
    const data = offset + BLOCK;
    if (data + size > tar.length) throw new Error("the tarball is truncated");
    if (type === "5") mkdirSync(path, { recursive: true, mode: 0o700 });
    else if (type !== "0" && type !== "\0") throw new Error(`the tarball's entry "${name}" is neither a file nor a folder`);
    // The lock file of the PGlite that made the dump stays behind: a cleanly closed directory has none.
    else if (segments.join("/") !== "postmaster.pid") {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileSync(path, tar.subarray(data, data + size), { mode: 0o600 });
    }
    offset = data + Math.ceil(size / BLOCK) * BLOCK;
  }
}

export interface OpenPgliteOptions {
  assets: PGliteOptions;
  migrationsFolder: string;
  /** The prepared cluster; null never uses one. */
  cluster: PreparedClusterFiles | null;
  /** Told why a fresh directory was initialised the slow way. */
  onSlowInit?: (reason: string) => void;
}

/** Opens the PGlite data directory, filling a fresh (empty) one from the prepared cluster when it can. */
export async function openPglite(dataDir: string, options: OpenPgliteOptions): Promise<PGlite> {
  // PGlite does not create parent folders itself. The owner's alone: the database holds reports.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Only an empty directory: anything in it (a database, or the remains of a failed initdb) is PGlite's to judge, as before.
  if (options.cluster === null || readdirSync(dataDir).length > 0) return PGlite.create({ dataDir, ...options.assets });
  const prepared = await readPreparedCluster(options.cluster, options.migrationsFolder);
  if ("tarball" in prepared) {
    try {
      extractCluster(prepared.tarball, dataDir);
      // PGlite now finds a database and starts it as it would any existing one.
      return await PGlite.create({ dataDir, ...options.assets });
    } catch (error) {
      options.onSlowInit?.(`the prepared cluster did not load (${error instanceof Error ? error.message : String(error)})`);
      // The directory was empty: whatever was written is ours, and initdb needs it empty again.
      rmSync(dataDir, { recursive: true, force: true });
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    }
  } else {
    options.onSlowInit?.(prepared.unusable);
  }
  return PGlite.create({ dataDir, ...options.assets });
}
