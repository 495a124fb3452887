import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { DatabaseHandle } from "../../../db/client.ts";
import type { BackupSchedule } from "../../config.ts";
import type { BlobStore } from "../blob-store.ts";
import { logError, logInfo } from "../log.ts";
import { backupLastMade, observeJob } from "../metrics.ts";
import { saveArchive, verifyArchive } from "./archive-file.ts";
import { backupStream } from "./create.ts";

/**
 * The embedded database's own recent backups (docs/decisions/070-automatic-backups.md): the same
 * archive as `bun run cli backup`, made by the server on a timer into BACKUP_DIR, checked against its
 * manifest once written, the oldest removed beyond BACKUP_KEEP. A damaged directory then always has a
 * recent archive beside it for `restore --latest`.
 */

/** lantern-2026-11-28T14-05-09Z.tar.gz: sortable by name, readable, and nothing else in the folder matches. */
const ARCHIVE_NAME = /^lantern-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z\.tar\.gz$/;
/** A fresh installation has nothing to protect at its first second; its first backup comes a little later. */
const FIRST_BACKUP_DELAY_MS = 5 * 60_000;

export interface KeptBackup {
  path: string;
  madeAt: Date;
}

/** The archives this server made in `directory`, newest first; other files are not its to touch. */
export function listBackups(directory: string): KeptBackup[] {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return [];
  }
  return names
    .flatMap((name) => {
      const match = ARCHIVE_NAME.exec(name);
      return match ? [{ path: join(directory, name), madeAt: new Date(`${match[1]}T${match[2]}:${match[3]}:${match[4]}Z`) }] : [];
    })
    .sort((a, b) => b.madeAt.getTime() - a.madeAt.getTime());
}

function archiveName(at: Date): string {
  return `lantern-${at.toISOString().slice(0, 19).replace(/:/g, "-")}Z.tar.gz`;
}

/** Makes one archive, checks it, and removes the oldest beyond `keep`. A failed or unreadable archive leaves no file. */
export async function makeScheduledBackup(database: DatabaseHandle, blobs: BlobStore, schedule: Pick<BackupSchedule, "directory" | "keep">, now = new Date()): Promise<KeptBackup> {
  mkdirSync(schedule.directory, { recursive: true, mode: 0o700 });
  const path = join(schedule.directory, archiveName(now));
  // Written as .partial and renamed once whole (saveArchive): a crash mid-backup never leaves a file that looks good.
  await saveArchive(backupStream(database, blobs), path);
  try {
    await verifyArchive(path);
  } catch (error) {
    rmSync(path, { force: true });
    throw error;
  }
  for (const old of listBackups(schedule.directory).slice(schedule.keep)) rmSync(old.path, { force: true });
  backupLastMade.set({}, Math.floor(now.getTime() / 1000));
  return { path, madeAt: now };
}

/**
 * Backs up every `everyMs`, counted from the newest archive already there (a restart does not start the
 * day again); never two at a time. The returned function stops the timer and waits for a backup under way.
 */
export function startScheduledBackups(database: DatabaseHandle, blobs: BlobStore, schedule: BackupSchedule, clock: () => number = Date.now): () => Promise<void> {
  const newest = listBackups(schedule.directory)[0];
  backupLastMade.set({}, newest ? Math.floor(newest.madeAt.getTime() / 1000) : 0);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const plan = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(run, Math.max(0, delayMs));
    timer.unref?.();
  };
  const run = () => {
    running = observeJob("backup", makeScheduledBackup(database, blobs, schedule, new Date(clock())))
      .then((made) => logInfo("Backed up the embedded database", { path: made.path }))
      .catch((error: unknown) => logError("The automatic backup failed", error, { directory: schedule.directory }))
      .finally(() => {
        running = null;
        plan(schedule.everyMs);
      });
  };
  plan(newest ? newest.madeAt.getTime() + schedule.everyMs - clock() : Math.min(FIRST_BACKUP_DELAY_MS, schedule.everyMs));
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
  };
}
