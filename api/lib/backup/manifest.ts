import * as v from "valibot";

/**
 * What an archive says about itself (docs/decisions/055-backup-and-restore.md). It is the archive's
 * last entry, followed by its own sha256, and names the sha256 of every other entry: restore checks
 * all of them before it writes anything.
 */

export const ARCHIVE_FORMAT = "lantern-backup";
export const ARCHIVE_VERSION = 1;
export const MANIFEST_ENTRY = "manifest.json";
export const MANIFEST_CHECKSUM_ENTRY = "manifest.sha256";
/** Blobs are at most an upload (30 MB) sealed; a table chunk is far smaller. */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

const TABLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const sha256 = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/));

const ManifestSchema = v.object({
  format: v.literal(ARCHIVE_FORMAT),
  version: v.literal(ARCHIVE_VERSION),
  createdAt: v.string(),
  database: v.picklist(["pglite", "postgres"]),
  migration: v.pipe(v.string(), v.regex(/^\d{14}_[a-z0-9_]+$/)),
  masterKeyIds: v.array(v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/))),
  tables: v.array(v.object({ name: v.pipe(v.string(), v.regex(TABLE_NAME)), rows: v.pipe(v.number(), v.integer(), v.minValue(0)) })),
  entries: v.array(v.object({ name: v.pipe(v.string(), v.maxLength(100)), bytes: v.pipe(v.number(), v.integer(), v.minValue(0)), sha256 })),
  blobs: v.array(v.object({ entry: v.string(), key: v.string(), bytes: v.pipe(v.number(), v.integer(), v.minValue(0)), sha256 })),
  /** Rows of `blobs` whose bytes had already gone from the store when the archive was made (deleted since). */
  missingBlobs: v.array(v.string()),
});

export type BackupManifest = v.InferOutput<typeof ManifestSchema>;

export function parseManifest(text: string): BackupManifest | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const result = v.safeParse(ManifestSchema, value);
  return result.success ? result.output : null;
}

export function tableChunkEntry(table: string, index: number): string {
  return `db/${table}/${String(index).padStart(6, "0")}.json`;
}

/** The table a chunk entry belongs to, or null when the name is not a table chunk. */
export function tableOfEntry(name: string): string | null {
  const match = /^db\/([a-z_][a-z0-9_]{0,62})\/\d{6,}\.json$/.exec(name);
  return match ? match[1]! : null;
}

export function blobEntry(index: number): string {
  return `blobs/${String(index).padStart(8, "0")}`;
}
