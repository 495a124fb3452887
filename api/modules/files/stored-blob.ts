import type { Database } from "../../../db/client.ts";
import { blobs } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { newBlobKey } from "../../lib/blob-store.ts";
import { utcToday } from "../../lib/day-grain.ts";
import { logError } from "../../lib/log.ts";
import { sha256Hex } from "../../lib/tokens.ts";
import type { BlobPurpose } from "../../shared/enums.ts";
import { isSealedBlobPurpose } from "./sealed-files.ts";

/** Bytes that passed their checks (sniffed, stripped of metadata) and the row that will describe them. */
export interface CheckedFile {
  purpose: BlobPurpose;
  organisationId: string | null;
  fileName: string;
  mimeType: string;
  bytes: Uint8Array;
  /** Whether identifying metadata was removed (docs/decisions/048-clean-files.md); images, the default, always are. */
  metadataRemoved?: boolean;
}

/** Removes bytes whose row is gone or never came to be; a failure only leaves an orphan file, so it is logged, not thrown. */
export async function removeBlobBytes(ctx: Ctx, storageKey: string, what: string): Promise<void> {
  await ctx.services.blobs.delete(storageKey).catch((error: unknown) => logError(`Could not remove the bytes of ${what}`, error));
}

/**
 * Stores a checked file: the bytes go to the blob store first (it cannot join a database
 * transaction), then `write` runs the transaction, inserting the blob row through the function it is
 * given. When `write` throws, the bytes are removed again, so no file is left without its row.
 *
 * A reporter's file (sealed-files.ts) is sealed with its organisation's key, bytes and name; `write`
 * gets the sealed name to store wherever else it keeps it. Its digest is of the sealed bytes: the
 * plaintext's would let anyone holding a known file confirm that a reporter sent it. The size stays
 * the plaintext's: the limits and the download's Content-Length are about what was sent.
 */
export async function storeCheckedFile<T>(
  ctx: Ctx,
  file: CheckedFile,
  write: (insertBlobRow: (tx: Database) => Promise<string>, storedFileName: string) => Promise<T>,
): Promise<T> {
  const storageKey = newBlobKey(file.purpose === "ChatImage" ? "chat-image" : file.purpose.toLowerCase());
  const sealer = isSealedBlobPurpose(file.purpose) && file.organisationId ? await ctx.services.keyRing.sealer(ctx.db, file.organisationId) : null;
  const storedBytes = sealer ? sealer.sealFile(file.bytes) : file.bytes;
  const storedFileName = sealer ? sealer.sealText("fileName", file.fileName) : file.fileName;
  await ctx.services.blobs.put(storageKey, storedBytes, file.mimeType);
  const insertBlobRow = async (tx: Database) => {
    const [row] = await tx
      .insert(blobs)
      .values({
        organisationId: file.organisationId,
        purpose: file.purpose,
        storageKey,
        fileName: storedFileName,
        mimeType: file.mimeType,
        sizeBytes: file.bytes.length,
        sha256: sha256Hex(storedBytes),
        metadataRemoved: file.metadataRemoved ?? true,
        // A reporter's upload keeps only its day (decision 064), here as on its attachment row.
        ...(file.purpose === "Attachment" ? { createdAt: utcToday() } : {}),
      })
      .returning({ id: blobs.id });
    return row!.id;
  };
  try {
    return await write(insertBlobRow, storedFileName);
  } catch (error) {
    await removeBlobBytes(ctx, storageKey, `a refused ${file.purpose}`);
    throw error;
  }
}
