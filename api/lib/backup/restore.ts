import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase, type Database, type DatabaseHandle } from "../../../db/client.ts";
import { migrateDatabase, MIGRATIONS_FOLDER } from "../../../db/migrate.ts";
import { resultRows } from "../../../db/results.ts";
import type { Config } from "../../config.ts";
import { createBlobStore, isValidBlobKey, type BlobStore } from "../blob-store.ts";
import { archiveEntries, verifyArchive } from "./archive-file.ts";
import { firstForeignBlobKey } from "./blob-listing.ts";
import { MANIFEST_CHECKSUM_ENTRY, MANIFEST_ENTRY, tableOfEntry, type BackupManifest } from "./manifest.ts";
import { lastMigration, schemaTables } from "./schema-tables.ts";
import { ArchiveError } from "./tar.ts";

/** A restore that cannot go ahead; the message is the one line the operator sees. */
export class RestoreError extends Error {}

export interface RestoreResult {
  manifest: BackupManifest;
  rows: number;
  files: number;
}

/**
 * Restores an archive onto an empty database and blob store (docs/decisions/055-backup-and-restore.md):
 * checks the whole archive first, brings the empty database to the archive's migration, loads every
 * table and writes every blob in one transaction, then runs the migrations that came after it.
 */
export interface RestoreOptions {
  /**
   * Files already in the blob store may stay (restore --latest onto the same installation): those the
   * archive names are written again, the others are newer than it. Otherwise the store must be empty.
   */
  filesMayRemain?: boolean;
}

export async function restoreArchive(path: string, config: Config, migrationsFolder = MIGRATIONS_FOLDER, options: RestoreOptions = {}): Promise<RestoreResult> {
  const manifest = await verifyArchive(path);
  const known = (await readdir(migrationsFolder)).filter((name) => existsSync(join(migrationsFolder, name, "migration.sql"))).sort();
  const upTo = known.indexOf(manifest.migration);
  if (upTo === -1) throw new RestoreError(`The archive was made by a newer Lantern (migration ${manifest.migration}): restore it with that version or a later one`);
  for (const blob of manifest.blobs) if (!isValidBlobKey(blob.key)) throw new ArchiveError("The archive is damaged: it names a file under an invalid key");

  const foreign = options.filesMayRemain ? null : await firstForeignBlobKey(config.blobs, new Set(manifest.blobs.map((blob) => blob.key)));
  if (foreign !== null) throw new RestoreError(`The blob store is not empty (${config.blobs.kind === "s3" ? `bucket ${config.blobs.bucket}` : config.blobs.directory}): restore into an empty one`);

  let createdDirectory: string | null = null;
  if (config.database.kind === "pglite") {
    const directory = config.database.dataDir;
    if (existsSync(directory) && readdirSync(directory).length > 0) throw new RestoreError(`The data directory already holds a database (${directory}): restore into an empty DATA_DIR`);
    createdDirectory = directory;
  }
  // The database is brought to the archive's migration, no further: a fresh embedded directory takes
  // the prepared cluster only if that is a start of these migrations.
  const partial = await migrationsUpTo(migrationsFolder, known.slice(0, upTo + 1));
  let handle: DatabaseHandle;
  try {
    handle = await openDatabase(config.database.kind === "pglite" ? config.database : { ...config.database, max: 2 }, { migrationsFolder: partial });
    try {
      await refuseNonEmpty(handle.db, manifest.migration);
      await migrateDatabase(handle, partial);
    } catch (error) {
      await handle.close();
      throw error;
    }
  } catch (error) {
    if (createdDirectory) await rm(createdDirectory, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  try {
    const result = await load(handle, path, manifest, createBlobStore(config.blobs));
    await migrateDatabase(handle, migrationsFolder);
    await handle.close();
    return result;
  } catch (error) {
    await handle.close().catch(() => undefined);
    // The directory was empty: whatever is in it now is this attempt's, and a retry needs it empty again.
    if (createdDirectory) await rm(createdDirectory, { recursive: true, force: true });
    throw error;
  }
}

/** Empty means no Lantern tables, or tables at the archive's migration holding nothing but the roles every start adds. */
async function refuseNonEmpty(db: Database, archiveMigration: string): Promise<void> {
  const tables = await schemaTables(db);
  if (tables.length === 0) return;
  const current = await lastMigration(db);
  if (current !== archiveMigration) throw new RestoreError(`The target database is not empty (it holds Lantern's tables at migration ${current ?? "none"}): restore into a new, empty database`);
  for (const table of tables) {
    if (table === "roles") continue;
    const [row] = resultRows<{ found: boolean }>(await db.execute(sql`select exists (select 1 from ${sql.identifier(table)}) as found`));
    if (row?.found) throw new RestoreError(`The target database is not empty (table ${table} has rows): restore into a new, empty database`);
  }
}

/** A folder of the first migrations only (links to the real ones), for the migrator to stop at the archive's. */
async function migrationsUpTo(folder: string, names: string[]): Promise<string> {
  const partial = await mkdtemp(join(tmpdir(), "lantern-restore-migrations-"));
  for (const name of names) await symlink(join(folder, name), join(partial, name), "dir");
  return partial;
}

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

async function load(handle: DatabaseHandle, path: string, manifest: BackupManifest, blobs: BlobStore): Promise<RestoreResult> {
  const decoder = new TextDecoder();
  const expected = new Map(manifest.entries.map((entry) => [entry.name, entry.sha256]));
  const blobKeys = new Map(manifest.blobs.map((blob) => [blob.entry, blob.key]));
  let rows = 0;
  let files = 0;
  await handle.db.transaction(async (tx) => {
    const tables = await schemaTables(tx);
    const archived = manifest.tables.map((table) => table.name).sort();
    if (tables.join(",") !== archived.join(",")) throw new RestoreError("The archive's tables are not those of its migration: it was not made by Lantern");
    // Rows load in any order: the foreign keys go for the load and come back (checked) before commit,
    // and the triggers that keep derived rows up to date stay off (their rows are in the archive too).
    const foreignKeys = resultRows<{ on: string; name: string; definition: string }>(
      await tx.execute(sql`select conrelid::regclass::text as "on", conname as name, pg_get_constraintdef(oid) as definition from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace`),
    );
    for (const key of foreignKeys) await tx.execute(sql.raw(`alter table ${key.on} drop constraint "${key.name}"`));
    for (const table of tables) await tx.execute(sql`alter table ${sql.identifier(table)} disable trigger user`);
    await tx.execute(sql`delete from roles`);

    for await (const entry of archiveEntries(path)) {
      if (entry.name === MANIFEST_ENTRY || entry.name === MANIFEST_CHECKSUM_ENTRY) continue;
      // Read a second time: the file must still be the one checked.
      if (expected.get(entry.name) !== sha256(entry.data)) throw new ArchiveError(`The archive changed while it was restored (${entry.name})`);
      const table = tableOfEntry(entry.name);
      const key = blobKeys.get(entry.name);
      if (table) {
        await tx.execute(sql`insert into ${sql.identifier(table)} select * from json_populate_recordset(null::${sql.identifier(table)}, ${decoder.decode(entry.data)}::text::json)`);
      } else if (key) {
        await blobs.put(key, entry.data, "application/octet-stream");
        files++;
      } else throw new ArchiveError(`The archive is damaged: it holds an unknown entry ${entry.name}`);
    }

    for (const table of tables) await tx.execute(sql`alter table ${sql.identifier(table)} enable trigger user`);
    for (const key of foreignKeys) await tx.execute(sql.raw(`alter table ${key.on} add constraint "${key.name}" ${key.definition}`));
    for (const table of manifest.tables) {
      const [row] = resultRows<{ count: number }>(await tx.execute(sql`select count(*)::int as count from ${sql.identifier(table.name)}`));
      if (row?.count !== table.rows) throw new ArchiveError(`The archive is damaged: table ${table.name} loaded ${row?.count ?? 0} rows, its manifest says ${table.rows}`);
      rows += table.rows;
    }
  });
  return { manifest, rows, files };
}
