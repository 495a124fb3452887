import { existsSync, readdirSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Config } from "../../api/config.ts";
import { createBlobStore } from "../../api/lib/blob-store.ts";
import { saveArchive, verifyArchive } from "../../api/lib/backup/archive-file.ts";
import { backupStream } from "../../api/lib/backup/create.ts";
import type { BackupManifest } from "../../api/lib/backup/manifest.ts";
import { restoreArchive } from "../../api/lib/backup/restore.ts";
import { listBackups } from "../../api/lib/backup/scheduled.ts";
import { requestBackupFromServer, serverAnswersOn } from "../../api/lib/backup/socket.ts";
import { openDatabase } from "../../db/client.ts";
import { DataDirLockedError, lockDataDir } from "../../db/data-dir-lock.ts";
import { CommandFailure, EXIT } from "../commands/outcome.ts";

/**
 * `backup --to FILE` and `restore --from FILE` (docs/decisions/055-backup-and-restore.md). Neither
 * opens the database the way the other commands do: a backup of the embedded database goes through
 * the running server when there is one, and a restore must find its target empty. A foreseen failure
 * throws an error whose message is the operator's one line (the command runner prints it).
 */

function describeKeys(manifest: BackupManifest): string {
  if (manifest.masterKeyIds.length === 0) return "The archive holds no sealed data: any master key will do.";
  return `The archive needs master key ${manifest.masterKeyIds.join(" or ")} (not in the archive: keep it apart from it).`;
}

export async function backup(to: string, config: Config): Promise<void> {
  const file = resolve(to);
  if (existsSync(file)) throw new CommandFailure(`${file} already exists: name a new file`);
  let via = "the database";
  let tar = config.database.kind === "pglite" ? await requestBackupFromServer(config.dataDir) : null;
  let close = async () => {};
  if (tar) via = "the running server";
  else {
    if (config.database.kind === "pglite") {
      const directory = config.database.dataDir;
      if (!existsSync(directory) || readdirSync(directory).length === 0) throw new CommandFailure(`There is no database in ${directory} to back up`);
    }
    // Opening takes the directory's lock: a process that holds it without answering on the socket is named, and the directory is left alone.
    const database = await openDatabase(config.database.kind === "pglite" ? config.database : { ...config.database, max: 2 }, { preparedCluster: null }).catch((error: unknown) => {
      if (error instanceof DataDirLockedError) throw new CommandFailure(`${error.message} (no server answers on its backup socket)`, EXIT.dataDirInUse);
      throw error;
    });
    close = () => database.close();
    tar = backupStream(database, createBlobStore(config.blobs));
  }
  let bytes: number;
  let manifest: BackupManifest;
  try {
    bytes = await saveArchive(tar, file);
  } finally {
    await close();
  }
  try {
    manifest = await verifyArchive(file);
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
  const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
  console.log(`Backed up ${rows} rows of ${manifest.tables.length} tables and ${manifest.blobs.length} files through ${via} to ${file} (${bytes} bytes).`);
  if (manifest.missingBlobs.length > 0) console.log(`${manifest.missingBlobs.length} files were deleted while the backup ran and are not in it.`);
  console.log(describeKeys(manifest));
}

/** `migrationsFolder`: the single executable's own, written out of it (api/embedded.ts). */
export async function restore(from: string, config: Config, migrationsFolder?: string): Promise<void> {
  const file = resolve(from);
  if (config.database.kind === "pglite" && (await serverAnswersOn(config.dataDir))) {
    throw new CommandFailure(`A Lantern server is running on ${config.dataDir}: restore into an empty DATA_DIR with no server on it`, EXIT.dataDirInUse);
  }
  const result = await restoreArchive(file, config, migrationsFolder);
  console.log(`Restored ${result.rows} rows and ${result.files} files from ${file} (made ${result.manifest.createdAt} on ${result.manifest.database}).`);
  console.log(describeKeys(result.manifest));
}

/**
 * `restore --latest` (decision 070): the embedded database's newest automatic backup, onto a data
 * directory that no longer opens. The damaged database is moved aside, never deleted (it may still
 * hold what came after the backup), and the stored files stay where they are: those the archive
 * names are written again, those it does not name are newer than it and are left for the operator.
 */
export async function restoreLatest(config: Config, migrationsFolder?: string): Promise<void> {
  if (config.database.kind !== "pglite") throw new CommandFailure("--latest restores the embedded database's automatic backups; on PostgreSQL, restore an archive with --from FILE into an empty database", EXIT.usage);
  const directory = config.backups?.directory ?? join(config.dataDir, "backups");
  const newest = listBackups(directory)[0];
  if (!newest) throw new CommandFailure(`There is no automatic backup in ${directory}: restore an archive with --from FILE`);
  const database = config.database.dataDir;
  // Held while the directory is moved: no server may be using it (decision 067).
  const lock = await lockDataDir(config.dataDir);
  let movedTo: string | null = null;
  try {
    if (existsSync(database) && readdirSync(database).length > 0) {
      movedTo = `${database}.damaged-${new Date().toISOString().slice(0, 19).replace(/:/g, "-")}Z`;
      await rename(database, movedTo);
      console.log(`Moved the database that does not open aside to ${movedTo}.`);
    }
  } finally {
    lock.release();
  }
  const result = await restoreArchive(newest.path, config, migrationsFolder, { filesMayRemain: true });
  console.log(`Restored ${result.rows} rows and ${result.files} files from ${newest.path} (made ${result.manifest.createdAt}).`);
  console.log(describeKeys(result.manifest));
  if (movedTo) console.log(`What was written after that backup is not in it. The damaged database stays in ${movedTo} until you remove it.`);
}
