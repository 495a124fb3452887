import { and, asc, eq, gt, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Database } from "../../db/client.ts";
import { inPlain } from "../../db/schema/columns.ts";
import { blobs, proofOfWorkKeys, reportConversationMessages, reportSubmissionAnswers, reportSubmissionAttachments, reportSubmissionNotes, reportSubmissions, users } from "../../db/schema/index.ts";
import { SEALED_BLOB_PURPOSES } from "../modules/files/sealed-files.ts";
import { newBlobKey, type BlobStore } from "./blob-store.ts";
import { isSealedFile, SEALED_TEXT_PREFIX, Sealer, type KeyRing, type PlatformSecretPurpose, type SealPurpose } from "./key-ring.ts";
import { logError, logInfo } from "./log.ts";
import { observeJob } from "./metrics.ts";
import { sha256Hex } from "./tokens.ts";

/**
 * Rewrites sealed columns whose values are in plain (from before encryption) or, after a key
 * rotation, sealed with a key other than their organisation's active one
 * (docs/decisions/049-encryption-at-rest.md, "Files, reseal and what is left").
 *
 * Safe while servers run: rows are read in batches by primary key, the new values are computed
 * outside any transaction, and each batch is written in one short transaction in which a row is
 * updated only if its stored value is still the one read. A row changed meanwhile was written by
 * a server, sealed with a current key, and is left alone.
 */

export type ResealMode = "legacy" | "rotation";

export interface ResealCounts {
  answers: number;
  messages: number;
  notes: number;
  fileNames: number;
  files: number;
  /** Authenticator keys and the proof-of-work secret, under the platform's keys (decision 062). */
  platformSecrets: number;
  /** Values that did not open: each logged as the fault of the data it is; left as they are. */
  failed: number;
}

export interface ResealOptions {
  /** "legacy": only values in plain; "rotation": also values sealed with a key not the active one. */
  mode: ResealMode;
  batchSize?: number;
  /** Checked between batches: a server stopping ends the walk there. */
  shouldStop?: () => boolean;
}

const DEFAULT_BATCH = 200;
/** Files are read whole (25 MB at most each): few at a time. */
const FILE_BATCH = 20;

interface Walk {
  db: Database;
  keyRing: KeyRing;
  options: ResealOptions;
  counts: ResealCounts;
}

const KEY_ID_BYTES = 16;
const FILE_MAGIC_BYTES = 4;

function keyIdOfFile(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes.subarray(FILE_MAGIC_BYTES, FILE_MAGIC_BYTES + KEY_ID_BYTES)).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Whether a value sealed with `keyId` (null: in plain) is to be sealed again. */
function due(sealer: { activeKeyId: string }, keyId: string | null, mode: ResealMode): boolean {
  return keyId === null || (mode === "rotation" && keyId !== sealer.activeKeyId);
}

/** A text sealed again (by `sealAgain`) with the active key, or null when it is to stay as it is. */
function resealedWith(walk: Walk, sealer: { activeKeyId: string }, stored: string, sealAgain: (stored: string) => string, where: Record<string, string>): string | null {
  if (stored === "" || !due(sealer, Sealer.keyIdOfText(stored), walk.options.mode)) return null;
  try {
    return sealAgain(stored);
  } catch (error) {
    walk.counts.failed += 1;
    logError("A sealed value does not open; it was left as it is", error, where);
    return null;
  }
}

const resealedText = (walk: Walk, sealer: Sealer, purpose: SealPurpose, stored: string, where: Record<string, string>) =>
  resealedWith(walk, sealer, stored, (text) => sealer.sealText(purpose, sealer.openText(purpose, text)), { purpose, ...where });

interface TextRow {
  id: string;
  organisationId: string | null;
  stored: string;
}

interface TextColumn {
  count: "messages" | "notes" | "fileNames";
  purpose: SealPurpose;
  read(db: Database, after: string | null, limit: number, mode: ResealMode): Promise<TextRow[]>;
  /** Updates one row if its value is still `before`; true when it did. */
  write(tx: Database, id: string, before: string, after: string): Promise<boolean>;
}

const afterId = (column: Parameters<typeof gt>[0], after: string | null) => (after ? gt(column, after) : undefined);

/**
 * A text in plain: not empty and without the seal's mark. A test of the prefix only, never of sealed
 * content. Spelled as the partial indexes' predicates are (inPlain, with the mark as a literal, not
 * a parameter), so Postgres reads those indexes, which hold only such rows, instead of every row of
 * the table on every start (decision 059: a million answers took 3.7 s to find none).
 */
const plainText = (column: PgColumn) => inPlain(column);
// The indexes' predicates spell the mark out (the schema does not import the key ring).
if (SEALED_TEXT_PREFIX !== "lx1:") throw new Error("inPlain (db/schema/columns.ts) and lantern_holds_plain_text must test the seal's new mark");

/**
 * One text column of a table keyed by `id`. `organisationId` is read from the table itself or,
 * given `viaSubmission`, from the report the row belongs to.
 */
function textColumn(spec: {
  count: TextColumn["count"];
  purpose: SealPurpose;
  table: PgTable & { id: PgColumn };
  column: PgColumn;
  field: string;
  organisationId: PgColumn;
  viaSubmission?: PgColumn;
  only?: SQL;
}): TextColumn {
  const { table, column } = spec;
  return {
    count: spec.count,
    purpose: spec.purpose,
    async read(db, after, limit, mode) {
      const selected = db.select({ id: table.id, organisationId: spec.organisationId, stored: column }).from(table as PgTable);
      const joined = spec.viaSubmission ? selected.innerJoin(reportSubmissions, eq(reportSubmissions.id, spec.viaSubmission)) : selected;
      const plain = mode === "legacy" ? plainText(column) : undefined;
      return (await joined.where(and(spec.only, plain, afterId(table.id, after))).orderBy(asc(table.id)).limit(limit)) as TextRow[];
    },
    async write(tx, id, before, after) {
      const updated = await tx
        .update(table as PgTable)
        .set({ [spec.field]: after } as never)
        .where(and(eq(table.id, id), eq(column, before)))
        .returning({ id: table.id });
      return updated.length > 0;
    },
  };
}

const TEXT_COLUMNS: TextColumn[] = [
  textColumn({ count: "messages", purpose: "message", table: reportConversationMessages, column: reportConversationMessages.message, field: "message", organisationId: reportConversationMessages.organisationId }),
  textColumn({ count: "notes", purpose: "note", table: reportSubmissionNotes, column: reportSubmissionNotes.note, field: "note", organisationId: reportSubmissionNotes.organisationId }),
  textColumn({
    count: "fileNames",
    purpose: "fileName",
    table: reportSubmissionAttachments,
    column: reportSubmissionAttachments.fileName,
    field: "fileName",
    organisationId: reportSubmissions.organisationId,
    viaSubmission: reportSubmissionAttachments.submissionId,
  }),
  textColumn({ count: "fileNames", purpose: "fileName", table: blobs, column: blobs.fileName, field: "fileName", organisationId: blobs.organisationId, only: inArray(blobs.purpose, [...SEALED_BLOB_PURPOSES]) }),
];

const organisationsOf = (rows: { organisationId: string | null }[]) => rows.flatMap((row) => (row.organisationId ? [row.organisationId] : []));

async function resealTextColumn(walk: Walk, column: TextColumn): Promise<void> {
  const limit = walk.options.batchSize ?? DEFAULT_BATCH;
  let after: string | null = null;
  while (!walk.options.shouldStop?.()) {
    const rows = await column.read(walk.db, after, limit, walk.options.mode);
    if (rows.length === 0) return;
    after = rows.at(-1)!.id;
    const sealers = await walk.keyRing.sealers(walk.db, organisationsOf(rows));
    const changes = rows.flatMap((row) => {
      const sealer = row.organisationId ? sealers.get(row.organisationId) : undefined;
      const resealed = sealer ? resealedText(walk, sealer, column.purpose, row.stored, { id: row.id }) : null;
      return resealed === null ? [] : [{ id: row.id, before: row.stored, after: resealed }];
    });
    if (changes.length === 0) continue;
    const written = await walk.db.transaction(async (tx) => {
      let n = 0;
      for (const change of changes) if (await column.write(tx, change.id, change.before, change.after)) n += 1;
      return n;
    });
    walk.counts[column.count] += written;
  }
}

/** Answers are keyed by (report, question), and each element of an answer is sealed on its own. */
async function resealAnswers(walk: Walk): Promise<void> {
  const limit = walk.options.batchSize ?? DEFAULT_BATCH;
  type Cursor = { submissionId: string; widgetId: string };
  let after: Cursor | null = null;
  while (!walk.options.shouldStop?.()) {
    const cursor = after as Cursor | null;
    const rows = await walk.db
      .select({ submissionId: reportSubmissionAnswers.submissionId, widgetId: reportSubmissionAnswers.widgetId, organisationId: reportSubmissions.organisationId, stored: reportSubmissionAnswers.answer })
      .from(reportSubmissionAnswers)
      .innerJoin(reportSubmissions, eq(reportSubmissions.id, reportSubmissionAnswers.submissionId))
      .where(
        and(
          cursor ? sql`(${reportSubmissionAnswers.submissionId}, ${reportSubmissionAnswers.widgetId}) > (${cursor.submissionId}, ${cursor.widgetId})` : undefined,
          // The function is the predicate of report_submission_answers_in_plain_idx (migration report_list_at_scale).
          walk.options.mode === "legacy" ? sql`lantern_holds_plain_text(${reportSubmissionAnswers.answer})` : undefined,
        ),
      )
      .orderBy(asc(reportSubmissionAnswers.submissionId), asc(reportSubmissionAnswers.widgetId))
      .limit(limit);
    if (rows.length === 0) return;
    after = { submissionId: rows.at(-1)!.submissionId, widgetId: rows.at(-1)!.widgetId };
    const sealers = await walk.keyRing.sealers(walk.db, organisationsOf(rows));
    const changes = rows.flatMap((row) => {
      const sealer = sealers.get(row.organisationId)!;
      const resealed = row.stored.map((element) => resealedText(walk, sealer, "answer", element, { submissionId: row.submissionId, widgetId: row.widgetId }));
      if (resealed.every((element) => element === null)) return [];
      return [{ ...row, after: resealed.map((element, index) => element ?? row.stored[index]!) }];
    });
    if (changes.length === 0) continue;
    walk.counts.answers += await walk.db.transaction(async (tx) => {
      let n = 0;
      for (const change of changes) {
        const updated = await tx
          .update(reportSubmissionAnswers)
          .set({ answer: change.after })
          .where(and(eq(reportSubmissionAnswers.submissionId, change.submissionId), eq(reportSubmissionAnswers.widgetId, change.widgetId), eq(reportSubmissionAnswers.answer, change.stored)))
          .returning({ widgetId: reportSubmissionAnswers.widgetId });
        n += updated.length;
      }
      return n;
    });
  }
}

/**
 * A file's bytes are written again under a new key, and the row is moved to it only if it still
 * names the old one; then the bytes no longer named are removed. Nothing ever overwrites bytes a
 * download may be reading, and a file deleted meanwhile leaves no orphan.
 */
async function resealFiles(walk: Walk, store: BlobStore): Promise<void> {
  let after: string | null = null;
  while (!walk.options.shouldStop?.()) {
    const rows = await walk.db
      .select({ id: blobs.id, organisationId: blobs.organisationId, storageKey: blobs.storageKey, mimeType: blobs.mimeType })
      .from(blobs)
      // A file's name and bytes are sealed together on upload, and the bytes first here: a sealed name means sealed bytes.
      .where(and(inArray(blobs.purpose, [...SEALED_BLOB_PURPOSES]), walk.options.mode === "legacy" ? plainText(blobs.fileName) : undefined, afterId(blobs.id, after)))
      .orderBy(asc(blobs.id))
      .limit(FILE_BATCH);
    if (rows.length === 0) return;
    after = rows.at(-1)!.id;
    const sealers = await walk.keyRing.sealers(walk.db, organisationsOf(rows));
    for (const row of rows) {
      const sealer = row.organisationId ? sealers.get(row.organisationId) : undefined;
      const stored = sealer ? await store.get(row.storageKey) : null;
      if (!sealer || !stored || !due(sealer, isSealedFile(stored) ? keyIdOfFile(stored) : null, walk.options.mode)) continue;
      let resealed: Uint8Array;
      try {
        resealed = sealer.sealFile(sealer.openFile(stored));
      } catch (error) {
        walk.counts.failed += 1;
        logError("A sealed file does not open; it was left as it is", error, { blobId: row.id });
        continue;
      }
      const newKey = newBlobKey(row.storageKey.split("/")[0]!);
      await store.put(newKey, resealed, row.mimeType);
      const moved = await walk.db
        .update(blobs)
        .set({ storageKey: newKey, sha256: sha256Hex(resealed) })
        .where(and(eq(blobs.id, row.id), eq(blobs.storageKey, row.storageKey)))
        .returning({ id: blobs.id });
      await store.delete(moved.length > 0 ? row.storageKey : newKey).catch((error: unknown) => logError("Could not remove the bytes of a resealed file", error));
      walk.counts.files += moved.length;
    }
  }
}

/**
 * A column of platform secrets (decision 062), each bound to its row's id: the user an authenticator
 * key belongs to, the proof-of-work secret's one row. Tables of staff and settings, small enough to
 * read without an index of their plain rows.
 */
interface PlatformSecretColumn {
  purpose: PlatformSecretPurpose;
  table: PgTable;
  id: PgColumn;
  column: PgColumn;
  field: string;
}

const PLATFORM_SECRET_COLUMNS: PlatformSecretColumn[] = [
  { purpose: "twoFactorSecret", table: users, id: users.id, column: users.twoFactorSecret, field: "twoFactorSecret" },
  { purpose: "proofOfWorkSecret", table: proofOfWorkKeys, id: proofOfWorkKeys.id, column: proofOfWorkKeys.secret, field: "secret" },
];

async function resealPlatformSecrets(walk: Walk, spec: PlatformSecretColumn): Promise<void> {
  const limit = walk.options.batchSize ?? DEFAULT_BATCH;
  let after: string | null = null;
  while (!walk.options.shouldStop?.()) {
    const rows: { id: string; stored: string }[] = await walk.db
      .select({ id: sql<string>`${spec.id}::text`, stored: sql<string>`${spec.column}` })
      .from(spec.table)
      .where(and(isNotNull(spec.column), walk.options.mode === "legacy" ? plainText(spec.column) : undefined, afterId(spec.id, after)))
      .orderBy(asc(spec.id))
      .limit(limit);
    if (rows.length === 0) return;
    after = rows.at(-1)!.id;
    const sealer = await walk.keyRing.platformSealer(walk.db);
    const changes = rows.flatMap((row) => {
      const sealAgain = (text: string) => sealer.sealText(spec.purpose, row.id, sealer.openText(spec.purpose, row.id, text));
      const resealed = resealedWith(walk, sealer, row.stored, sealAgain, { purpose: spec.purpose, id: row.id });
      return resealed === null ? [] : [{ id: row.id, before: row.stored, after: resealed }];
    });
    if (changes.length === 0) continue;
    walk.counts.platformSecrets += await walk.db.transaction(async (tx) => {
      let n = 0;
      for (const change of changes) {
        const updated = await tx
          .update(spec.table)
          .set({ [spec.field]: change.after } as never)
          .where(and(eq(spec.id, change.id), eq(spec.column, change.before)))
          .returning({ id: spec.id });
        n += updated.length;
      }
      return n;
    });
  }
}

/** Walks every sealed column and file once; see the top of this file. */
export async function resealAll(db: Database, keyRing: KeyRing, store: BlobStore, options: ResealOptions): Promise<ResealCounts> {
  const walk: Walk = { db, keyRing, options, counts: { answers: 0, messages: 0, notes: 0, fileNames: 0, files: 0, platformSecrets: 0, failed: 0 } };
  // Files before names: the legacy sweep finds files in plain by their names in plain.
  await resealFiles(walk, store);
  await resealAnswers(walk);
  for (const column of TEXT_COLUMNS) await resealTextColumn(walk, column);
  for (const column of PLATFORM_SECRET_COLUMNS) await resealPlatformSecrets(walk, column);
  return walk.counts;
}

export const resealedAnything = (counts: ResealCounts) => Object.values(counts).some((n) => n > 0);

/**
 * Seals, once per start, what a database upgraded from before encryption still holds in plain.
 * It runs beside the server, never delaying its start; `stop` ends it between two batches and
 * waits for the batch under way, so the database is not closed beneath it.
 */
export function startLegacySealing(db: Database, keyRing: KeyRing, store: BlobStore): { done: Promise<ResealCounts | null>; stop(): Promise<void> } {
  let stopping = false;
  const done = observeJob("legacy_sealing", resealAll(db, keyRing, store, { mode: "legacy", shouldStop: () => stopping })).then(
    (counts) => {
      if (resealedAnything(counts)) logInfo("Values stored before encryption were sealed", { ...counts });
      return counts;
    },
    (error: unknown) => {
      logError("Sealing values stored before encryption failed; the next start tries again", error);
      return null;
    },
  );
  return {
    done,
    async stop() {
      stopping = true;
      await done;
    },
  };
}
