import type { Database } from "../../../db/client.ts";
import type { Ctx } from "../../context.ts";
import type { Sealer } from "../../lib/key-ring.ts";
import type { BlobPurpose } from "../../shared/enums.ts";

/**
 * Which stored files are sealed (docs/decisions/049-encryption-at-rest.md, "Files, reseal and what
 * is left"): what a reporter sent, the report's attachments and the chat's images. Avatars, logos
 * and help documents are the staff's and the organisation's own material and stay as they are.
 */
export const SEALED_BLOB_PURPOSES: readonly BlobPurpose[] = ["Attachment", "ChatImage"];

export const isSealedBlobPurpose = (purpose: BlobPurpose) => SEALED_BLOB_PURPOSES.includes(purpose);

/** A whole stored file, opened, as the stream a download answers with (attachments are at most 25 MB). */
export async function openedBlobStream(ctx: Ctx, organisationId: string, storageKey: string): Promise<ReadableStream<Uint8Array> | null> {
  const stored = await ctx.services.blobs.get(storageKey);
  if (!stored) return null;
  const sealer = await ctx.services.keyRing.sealer(ctx.db, organisationId);
  const bytes = sealer.openFile(stored);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

/** Attachment rows as they are shown: their file names opened, with one sealer for the organisation. */
export async function withOpenedFileNames<T extends { fileName: string }>(ctx: Ctx, db: Database, organisationId: string, rows: T[]): Promise<T[]> {
  if (rows.length === 0) return rows;
  const sealer: Sealer = await ctx.services.keyRing.sealer(db, organisationId);
  return rows.map((row) => ({ ...row, fileName: sealer.openText("fileName", row.fileName) }));
}
