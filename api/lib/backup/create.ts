import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { DatabaseHandle } from "../../../db/client.ts";
import { resultRows } from "../../../db/results.ts";
import type { BlobStore } from "../blob-store.ts";
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, blobEntry, MANIFEST_CHECKSUM_ENTRY, MANIFEST_ENTRY, tableChunkEntry, type BackupManifest } from "./manifest.ts";
import { TarWriter } from "./tar.ts";
import { lastMigration, schemaTables } from "./schema-tables.ts";

/** Rows per fetch and per archive entry: memory stays bounded whatever a table's size. */
const ROWS_PER_CHUNK = 500;

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

/**
 * Writes one archive of the database and its blobs to `write`. Every table is read in one
 * REPEATABLE READ READ ONLY transaction (one snapshot, through a cursor, a chunk at a time), and the
 * blobs that snapshot names are copied after it: a blob is never changed once written, so the copy
 * is consistent. Rows are exported as Postgres' own JSON of each row, so the archive loads into
 * either kind of database. Sealed values and files are copied as they are stored.
 */
export async function writeBackup(handle: DatabaseHandle, blobs: BlobStore, write: (chunk: Uint8Array) => Promise<void>): Promise<BackupManifest> {
  const tar = new TarWriter(write);
  const manifest: BackupManifest = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    createdAt: new Date().toISOString(),
    database: handle.kind,
    migration: "",
    masterKeyIds: [],
    tables: [],
    entries: [],
    blobs: [],
    missingBlobs: [],
  };
  const add = async (name: string, data: Uint8Array) => {
    manifest.entries.push({ name, bytes: data.length, sha256: sha256(data) });
    await tar.entry(name, data);
  };
  const encoder = new TextEncoder();
  let storageKeys: string[] = [];

  await handle.db.transaction(
    async (tx) => {
      const migration = await lastMigration(tx);
      if (!migration) throw new Error("The database has no migrations applied: there is nothing to back up");
      manifest.migration = migration;
      const tables = await schemaTables(tx);
      // Databases from before encryption at rest (decision 049) have no data keys, and need no master key;
      // the platform's keys (decision 062) are wrapped by it too.
      const keyTables = ["data_keys", "platform_keys"].filter((table) => tables.includes(table));
      if (keyTables.length > 0) {
        const ids = keyTables.map((table) => `select master_key_id as id from ${table}`).join(" union ");
        manifest.masterKeyIds = resultRows<{ id: string }>(await tx.execute(sql.raw(`select distinct id from (${ids}) as k order by 1`))).map((row) => row.id);
      }
      for (const table of tables) {
        let rows = 0;
        let chunk = 0;
        await tx.execute(sql.raw(`declare lantern_backup no scroll cursor for select row_to_json(t)::text as r from "${table}" t`));
        for (;;) {
          const batch = resultRows<{ r: string }>(await tx.execute(sql.raw(`fetch forward ${ROWS_PER_CHUNK} from lantern_backup`)));
          if (batch.length === 0) break;
          rows += batch.length;
          await add(tableChunkEntry(table, chunk++), encoder.encode(`[${batch.map((row) => row.r).join(",\n")}]`));
        }
        await tx.execute(sql.raw("close lantern_backup"));
        manifest.tables.push({ name: table, rows });
      }
      storageKeys = resultRows<{ key: string }>(await tx.execute(sql`select storage_key as key from blobs order by id`)).map((row) => row.key);
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );

  let index = 0;
  for (const key of storageKeys) {
    // Held whole: one blob is at most an upload, and S3 needs no second request for its size.
    const data = await blobs.get(key);
    if (data === null) {
      manifest.missingBlobs.push(key);
      continue;
    }
    const entry = blobEntry(index++);
    manifest.blobs.push({ entry, key, bytes: data.length, sha256: sha256(data) });
    await add(entry, data);
  }

  const manifestBytes = encoder.encode(JSON.stringify(manifest, null, 1));
  await tar.entry(MANIFEST_ENTRY, manifestBytes);
  await tar.entry(MANIFEST_CHECKSUM_ENTRY, encoder.encode(sha256(manifestBytes)));
  await tar.end();
  return manifest;
}

/** The archive as a stream whose reader drives the backup (a slow reader slows it, never buffers it). */
export function backupStream(handle: DatabaseHandle, blobs: BlobStore): ReadableStream<Uint8Array> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  writeBackup(handle, blobs, async (chunk) => {
    await writer.ready;
    await writer.write(chunk);
  }).then(
    () => writer.close(),
    (error: unknown) => writer.abort(error).catch(() => undefined),
  );
  return readable;
}
