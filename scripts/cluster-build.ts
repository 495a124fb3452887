import { PGlite } from "@electric-sql/pglite";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { wrapPglite } from "../db/client.ts";
import { MIGRATIONS_FOLDER, migrateDatabase } from "../db/migrate.ts";
import { pgliteExtensions } from "../db/pglite-assets.ts";
import { CLUSTER_MANIFEST, CLUSTER_TARBALL, DEFAULT_PREPARED_CLUSTER_DIR, migrationFingerprints, PGLITE_VERSION, sha256, type ClusterManifest } from "../db/prepared-cluster.ts";

/**
 * Builds the prepared cluster (db/prepared-cluster.ts, decision 026): PGlite's initdb and every
 * migration, done once here instead of at the first start of each installation, dumped as a tarball.
 * It is rebuilt when PGlite's version, a migration or the way it is built changes.
 */
const THIS_SCRIPT = fileURLToPath(import.meta.url);

/** Tables a migrated, empty cluster may hold rows in: the migration journal and the five roles (the same everywhere). */
const REFERENCE_TABLES = new Set(["__lantern_migrations", "roles"]);

interface BuiltManifest extends ClusterManifest {
  /** Of this script and the migrator: a change to how the cluster is made rebuilds it. */
  builder: string;
}

function builderHash(): string {
  return sha256(Buffer.concat([readFileSync(THIS_SCRIPT), readFileSync(fileURLToPath(new URL("../db/migrate.ts", import.meta.url)))]));
}

export function clusterIsCurrent(clusterDir = DEFAULT_PREPARED_CLUSTER_DIR, migrationsFolder = MIGRATIONS_FOLDER): boolean {
  try {
    const tarball = join(clusterDir, CLUSTER_TARBALL);
    if (!existsSync(tarball)) return false;
    const manifest = JSON.parse(readFileSync(join(clusterDir, CLUSTER_MANIFEST), "utf8")) as Partial<BuiltManifest>;
    const inputsSame = manifest.pglite === PGLITE_VERSION && manifest.builder === builderHash() && JSON.stringify(manifest.migrations) === JSON.stringify(migrationFingerprints(migrationsFolder));
    // A damaged tarball would be refused at every start: it is rebuilt instead (5 MB hash in ~15 ms).
    return inputsSame && manifest.sha256 === sha256(readFileSync(tarball));
  } catch {
    return false;
  }
}

/**
 * The tarball goes to every installation, so it must hold nothing that is one installation's own:
 * a migration that starts writing rows (a key, say) fails the build here instead of shipping them.
 */
export async function assertNothingPerInstallation(pg: PGlite): Promise<void> {
  const tables = await pg.query<{ name: string }>("select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'");
  for (const { name } of tables.rows) {
    if (REFERENCE_TABLES.has(name)) continue;
    const count = await pg.query<{ n: number }>(`select count(*)::int as n from public."${name.replaceAll('"', '""')}"`);
    if (count.rows[0]!.n > 0) throw new Error(`The prepared cluster would ship ${count.rows[0]!.n} row(s) of table ${name}; only ${[...REFERENCE_TABLES].join(", ")} may hold rows.`);
  }
}

export async function buildCluster(clusterDir = DEFAULT_PREPARED_CLUSTER_DIR, migrationsFolder = MIGRATIONS_FOLDER): Promise<void> {
  const migrations = migrationFingerprints(migrationsFolder);
  // In memory: initdb runs as it would for a data directory, and nothing is left on disk but the dump.
  const pg = await PGlite.create({ extensions: await pgliteExtensions() });
  let tarball: Uint8Array;
  try {
    await migrateDatabase(wrapPglite(pg), migrationsFolder);
    await assertNothingPerInstallation(pg);
    // Everything in the data files, so a start from the tarball has no WAL to replay.
    await pg.exec("CHECKPOINT");
    tarball = new Uint8Array(await (await pg.dumpDataDir("gzip")).arrayBuffer());
  } finally {
    await pg.close();
  }
  const manifest: BuiltManifest = { pglite: PGLITE_VERSION, migrations, sha256: sha256(tarball), builder: builderHash() };
  mkdirSync(clusterDir, { recursive: true });
  // Each file is replaced whole (two builds at once each write their own temporary file); should two
  // builds still pair one's manifest with the other's tarball, its hash refuses the pair and the next
  // start's check rebuilds it.
  const replace = (name: string, bytes: Uint8Array | string) => {
    const temporary = join(clusterDir, `.${name}.${process.pid}.tmp`);
    writeFileSync(temporary, bytes);
    renameSync(temporary, join(clusterDir, name));
  };
  rmSync(join(clusterDir, CLUSTER_MANIFEST), { force: true });
  replace(CLUSTER_TARBALL, tarball);
  replace(CLUSTER_MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * Builds the cluster in a child process when it is not current: PGlite's memory then goes with the
 * child instead of staying with a server started in this process. `output` takes the child's
 * stdout (a file descriptor: the bench sends it to stderr).
 */
export async function ensureClusterBuiltInChild(output: "inherit" | number = "inherit"): Promise<void> {
  if (clusterIsCurrent()) return;
  const child = Bun.spawn([process.execPath, THIS_SCRIPT], { stdin: "ignore", stdout: output, stderr: "inherit" });
  const code = await child.exited;
  if (code !== 0) throw new Error(`preparing the embedded database failed (scripts/cluster-build.ts exited with code ${code})`);
}

if (import.meta.main) {
  if (process.argv.includes("--force") || !clusterIsCurrent()) {
    console.log("Preparing the embedded database…");
    await buildCluster();
  }
}
