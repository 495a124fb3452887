import { eq } from "drizzle-orm";
import { blobs, users } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { requireStaff } from "../access/policy.ts";
import { recordActivity } from "../audit/service.ts";
import { prepareAvatarImage } from "../files/avatar-image.ts";
import { incomingImage } from "../files/chat-image.ts";
import { removeBlobBytes, storeCheckedFile } from "../files/stored-blob.ts";
import { lockOwnAccount } from "./own-account.ts";

/**
 * The signed-in user's new picture (spec §7, changeAvatar). The file is checked and stripped of
 * metadata before anything is stored; the bytes go to the blob store before the rows, and are
 * removed again when the rows are not written. The picture it replaces is deleted with it.
 */
export async function changeAvatar(ctx: Ctx, file: File): Promise<string> {
  const actor = requireStaff(ctx);
  const image = await prepareAvatarImage(incomingImage(file));
  let replacedStorageKey: string | null = null;
  await storeCheckedFile(ctx, { purpose: "Avatar", organisationId: actor.organisationId, fileName: image.fileName, mimeType: image.mimeType, bytes: image.bytes }, (insertBlobRow) =>
    ctx.db.transaction(async (tx) => {
      const account = await lockOwnAccount(tx, actor);
      const blobId = await insertBlobRow(tx);
      await tx.update(users).set({ avatarBlobId: blobId }).where(eq(users.id, account.id));
      if (account.avatarBlobId) {
        const [replaced] = await tx.delete(blobs).where(eq(blobs.id, account.avatarBlobId)).returning({ storageKey: blobs.storageKey });
        replacedStorageKey = replaced?.storageKey ?? null;
      }
      await recordActivity(tx, actor, {
        organisationId: account.organisationId,
        objectType: "Self",
        objectId: account.id,
        action: "ChangeAvatar",
        metadata: { mime_type: image.mimeType, size_bytes: image.bytes.length },
      });
    }),
  );
  if (replacedStorageKey) await removeBlobBytes(ctx, replacedStorageKey, "a replaced avatar");
  return actor.userId;
}
