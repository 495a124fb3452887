import { and, eq } from "drizzle-orm";
import { blobs, users } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { notFound } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { logError } from "../../lib/log.ts";
import { canReachOrganisation } from "../access/policy.ts";
import { FILE_NOT_FOUND } from "./attachments.ts";

/** The URL the User type's `avatar.fileURL` names; the blob id changes with every upload, so a new picture shows at once. */
export const avatarFileURL = (blobId: string) => `/api/files/avatars/${blobId}`;

/**
 * A staff member's picture, for staff who may see that user (themselves, their organisation, or
 * a super admin), and only while it is that user's current avatar. Everyone else, and every id
 * that names nothing, gets the same "not found".
 */
export async function openAvatar(ctx: Ctx, blobId: string) {
  const actor = ctx.actor;
  if (actor.kind !== "staff" || !isUuid(blobId)) throw notFound(FILE_NOT_FOUND);
  const [row] = await ctx.db
    .select({ userId: users.id, organisationId: users.organisationId, storageKey: blobs.storageKey, mimeType: blobs.mimeType, sizeBytes: blobs.sizeBytes })
    .from(users)
    .innerJoin(blobs, and(eq(blobs.id, users.avatarBlobId), eq(blobs.purpose, "Avatar")))
    .where(eq(users.avatarBlobId, blobId))
    .limit(1);
  if (!row || (row.userId !== actor.userId && !canReachOrganisation(actor, row.organisationId))) throw notFound(FILE_NOT_FOUND);
  const body = await ctx.services.blobs.stream(row.storageKey);
  if (!body) {
    logError("An avatar's bytes are missing from the blob store", undefined, { blobId });
    throw notFound(FILE_NOT_FOUND);
  }
  return { body, mimeType: row.mimeType, sizeBytes: row.sizeBytes };
}
