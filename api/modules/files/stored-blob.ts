import type { Database } from "../../../db/client.ts";
import { blobs } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { newBlobKey } from "../../lib/blob-store.ts";
import { logError } from "../../lib/log.ts";
import { sha256Hex } from "../../lib/tokens.ts";
import type { BlobPurpose } from "../../shared/enums.ts";

/** Bytes that passed their checks (sniffed, stripped of metadata) and the row that will describe them. */
export interface CheckedFile {
  purpose: BlobPurpose;
  organisationId: string | null;
  fileName: string;
  mimeType: string;
  bytes: Uint8Array;
}

/** Removes bytes whose row is gone or never came to be; a failure only leaves an orphan file, so it is logged, not thrown. */
export async function removeBlobBytes(ctx: Ctx, storageKey: string, what: string): Promise<void> {
  await ctx.services.blobs.delete(storageKey).catch((error: unknown) => logError(`Could not remove the bytes of ${what}`, error));
}

/**
 * Stores a checked file: the bytes go to the blob store first (it cannot join a database
 * transaction), then `write` runs the transaction, inserting the blob row through the function it is
 * given. When `write` throws, the bytes are removed again, so no file is left without its row.
 */
export async function storeCheckedFile<T>(
  ctx: Ctx,
  file: CheckedFile,
  write: (insertBlobRow: (tx: Database) => Promise<string>) => Promise<T>,
): Promise<T> {
  const storageKey = newBlobKey(file.purpose === "ChatImage" ? "chat-image" : file.purpose.toLowerCase());
  await ctx.services.blobs.put(storageKey, file.bytes, file.mimeType);
  const insertBlobRow = async (tx: Database) => {
    const [row] = await tx
      .insert(blobs)
      .values({
        organisationId: file.organisationId,
        purpose: file.purpose,
        storageKey,
        fileName: file.fileName,
        mimeType: file.mimeType,
        sizeBytes: file.bytes.length,
        sha256: sha256Hex(file.bytes),
      })
      .returning({ id: blobs.id });
    return row!.id;
  };
  try {
    return await write(insertBlobRow);
  } catch (error) {
    await removeBlobBytes(ctx, storageKey, `a refused ${file.purpose}`);
    throw error;
  }
}
