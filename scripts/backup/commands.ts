import { existsSync, readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Config } from "../../api/config.ts";
import { createBlobStore } from "../../api/lib/blob-store.ts";
import { saveArchive, verifyArchive } from "../../api/lib/backup/archive-file.ts";
import { backupStream } from "../../api/lib/backup/create.ts";
import type { BackupManifest } from "../../api/lib/backup/manifest.ts";
import { restoreArchive, RestoreError } from "../../api/lib/backup/restore.ts";
import { requestBackupFromServer, serverAnswersOn } from "../../api/lib/backup/socket.ts";
import { ArchiveError } from "../../api/lib/backup/tar.ts";
import { openDatabase } from "../../db/client.ts";
import { DataDirLockedError } from "../../db/data-dir-lock.ts";

/**
 * `backup --to FILE` and `restore --from FILE` (docs/decisions/055-backup-and-restore.md). Neither
 * opens the database the way the other commands do: a backup of the embedded database goes through
 * the running server when there is one, and a restore must find its target empty.
 * Returns the exit code; every failure is one line on stderr.
 */
export async function runBackupCommand(command: "backup" | "restore", args: string[], config: Config): Promise<number> {
  try {
    if (command === "backup") await backup(args, config);
    else await restore(args, config);
    return 0;
  } catch (error) {
    const known = error instanceof ArchiveError || error instanceof RestoreError || error instanceof UsageError;
    console.error(known ? (error as Error).message : `The ${command} failed: ${innermost(error)}`);
    return 1;
  }
}

class UsageError extends Error {}

/** Drizzle wraps the database's error (which says what went wrong) in one that repeats the query. */
function innermost(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message.split("\n")[0]! : String(current);
}

function fileArgument(args: string[], name: "to" | "from"): string {
  const { values } = parseArgs({ args, options: { [name]: { type: "string" } }, strict: false });
  const value = values[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} FILE is required`);
  return resolve(value);
}

function describeKeys(manifest: BackupManifest): string {
  if (manifest.masterKeyIds.length === 0) return "The archive holds no sealed data: any master key will do.";
  return `The archive needs master key ${manifest.masterKeyIds.join(" or ")} (not in the archive: keep it apart from it).`;
}

async function backup(args: string[], config: Config): Promise<void> {
  const file = fileArgument(args, "to");
  if (existsSync(file)) throw new UsageError(`${file} already exists: name a new file`);
  let via = "the database";
  let tar = config.database.kind === "pglite" ? await requestBackupFromServer(config.dataDir) : null;
  let close = async () => {};
  if (tar) via = "the running server";
  else {
    if (config.database.kind === "pglite") {
      const directory = config.database.dataDir;
      if (!existsSync(directory) || readdirSync(directory).length === 0) throw new UsageError(`There is no database in ${directory} to back up`);
    }
    // Opening takes the directory's lock: a process that holds it without answering on the socket is named, and the directory is left alone.
    const database = await openDatabase(config.database.kind === "pglite" ? config.database : { ...config.database, max: 2 }, { preparedCluster: null }).catch((error: unknown) => {
      if (error instanceof DataDirLockedError) throw new UsageError(`${error.message} (no server answers on its backup socket)`);
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

async function restore(args: string[], config: Config): Promise<void> {
  const file = fileArgument(args, "from");
  if (config.database.kind === "pglite" && (await serverAnswersOn(config.dataDir))) {
    throw new RestoreError(`A Lantern server is running on ${config.dataDir}: restore into an empty DATA_DIR with no server on it`);
  }
  const result = await restoreArchive(file, config);
  console.log(`Restored ${result.rows} rows and ${result.files} files from ${file} (made ${result.manifest.createdAt} on ${result.manifest.database}).`);
  console.log(describeKeys(result.manifest));
}
