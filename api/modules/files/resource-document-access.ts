import { and, eq } from "drizzle-orm";
import { blobs, resourceDocuments } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { notFound } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { logError } from "../../lib/log.ts";
import { managesResources } from "../resources/rules.ts";
import { FILE_NOT_FOUND } from "./attachments.ts";

/**
 * A help document's file, for every signed-in staff user while the document is active, and for
 * those who manage resources while it is archived (decision 039). Reporters, visitors and every id
 * that names nothing get the same "not found".
 */
export async function openResourceDocument(ctx: Ctx, documentId: string) {
  const actor = ctx.actor;
  if (actor.kind !== "staff" || !actor.permissions.has("ResourceRead") || !isUuid(documentId)) throw notFound(FILE_NOT_FOUND);
  const [row] = await ctx.db
    .select({ archived: resourceDocuments.archived, fileName: blobs.fileName, storageKey: blobs.storageKey, mimeType: blobs.mimeType, sizeBytes: blobs.sizeBytes })
    .from(resourceDocuments)
    .innerJoin(blobs, and(eq(blobs.id, resourceDocuments.blobId), eq(blobs.purpose, "ResourceDocument")))
    .where(eq(resourceDocuments.id, documentId.toLowerCase()))
    .limit(1);
  if (!row || (row.archived && !managesResources(actor))) throw notFound(FILE_NOT_FOUND);
  const body = await ctx.services.blobs.stream(row.storageKey);
  if (!body) {
    logError("A resource document's bytes are missing from the blob store", undefined, { documentId });
    throw notFound(FILE_NOT_FOUND);
  }
  return { body, fileName: row.fileName, mimeType: row.mimeType, sizeBytes: row.sizeBytes };
}
