import { eq } from "drizzle-orm";
import { blobs, users } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { badInput, UserError } from "../../lib/errors.ts";
import { parseOnceFound, requirePermission } from "../access/policy.ts";
import { recordActivity } from "../audit/service.ts";
import { prepareAvatarImage } from "../files/avatar-image.ts";
import { incomingImage, INVALID_FILE } from "../files/chat-image.ts";
import { removeBlobBytes, storeCheckedFile } from "../files/stored-blob.ts";
import { editableUser, lockReachableUser, requireOutranks, SUSPENDED_NOT_EDITABLE } from "./rules.ts";

/**
 * userUpdateAvatar (spec §7): another user's new picture, under the rules of userUpdate. As with
 * changeAvatar, the file is checked and stripped before it is stored, the bytes are removed again
 * when the rows are not written, and the picture it replaces goes with it.
 */
export async function updateUserAvatar(ctx: Ctx, rawId: unknown, file: File | null): Promise<string> {
  const actor = requirePermission(ctx, "UserUpdate");
  const image = await parseOnceFound(ctx, "UserUpdate", (db, found) => editableUser(db, found, rawId), () => {
    if (!(file instanceof File)) throw badInput(INVALID_FILE);
    return prepareAvatarImage(incomingImage(file));
  });
  let replacedStorageKey: string | null = null;
  const id = await storeCheckedFile(ctx, { purpose: "Avatar", organisationId: null, fileName: image.fileName, mimeType: image.mimeType, bytes: image.bytes }, (insertBlobRow) =>
    ctx.db.transaction(async (tx) => {
      const target = await lockReachableUser(tx, actor, rawId);
      if (target.id !== actor.userId) requireOutranks(actor, target);
      if (target.suspended) throw new UserError("CONFLICT", SUSPENDED_NOT_EDITABLE);
      const blobId = await insertBlobRow(tx);
      // The picture belongs to the user's organisation, as their own uploads do.
      await tx.update(blobs).set({ organisationId: target.organisationId }).where(eq(blobs.id, blobId));
      await tx.update(users).set({ avatarBlobId: blobId }).where(eq(users.id, target.id));
      if (target.avatarBlobId) {
        const [replaced] = await tx.delete(blobs).where(eq(blobs.id, target.avatarBlobId)).returning({ storageKey: blobs.storageKey });
        replacedStorageKey = replaced?.storageKey ?? null;
      }
      await recordActivity(tx, actor, {
        organisationId: target.organisationId,
        objectType: target.id === actor.userId ? "Self" : "User",
        objectId: target.id,
        action: "ChangeAvatar",
        metadata: { first_name: target.firstName, last_name: target.lastName, mime_type: image.mimeType, size_bytes: image.bytes.length },
      });
      return target.id;
    }),
  );
  if (replacedStorageKey) await removeBlobBytes(ctx, replacedStorageKey, "a replaced avatar");
  return id;
}
