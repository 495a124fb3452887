import { and, eq } from "drizzle-orm";
import { blobs, reportConversationMessages, reportConversations } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { notFound, UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { logError } from "../../lib/log.ts";
import { conversationFor, type ConversationAccess } from "../conversations/access.ts";
import { FILE_NOT_FOUND } from "./attachments.ts";
import { openedBlobStream } from "./sealed-files.ts";

export interface ChatImageDownload {
  mimeType: string;
  sizeBytes: number;
  body: ReadableStream<Uint8Array>;
}

/**
 * The picture of an Image message, for whoever may read its conversation: the reporter of that
 * report, or staff as `conversationFor` decides (the same rule as the chat's history). Everyone
 * else, and every id that names nothing, gets the same "not found", so the existence of a message
 * is not revealed either.
 */
export async function openChatImage(ctx: Ctx, messageId: string): Promise<ChatImageDownload> {
  if (!isUuid(messageId) || (ctx.actor.kind !== "reporter" && ctx.actor.kind !== "staff")) throw notFound(FILE_NOT_FOUND);
  const [row] = await ctx.db
    .select({
      conversationId: reportConversationMessages.conversationId,
      submissionId: reportConversations.submissionId,
      organisationId: reportConversations.organisationId,
      blobOrganisationId: blobs.organisationId,
      mimeType: blobs.mimeType,
      sizeBytes: blobs.sizeBytes,
      storageKey: blobs.storageKey,
    })
    .from(reportConversationMessages)
    .innerJoin(reportConversations, eq(reportConversations.id, reportConversationMessages.conversationId))
    .innerJoin(blobs, and(eq(blobs.id, reportConversationMessages.imageBlobId), eq(blobs.purpose, "ChatImage")))
    .where(eq(reportConversationMessages.id, messageId))
    .limit(1);
  if (!row) throw notFound(FILE_NOT_FOUND);
  let access: ConversationAccess;
  try {
    // A reporter's own report is always the one checked, whatever id is passed; the conversation must then be this message's.
    access = await conversationFor(ctx, ctx.db, row.submissionId, "ReportConversationRead");
  } catch (error) {
    if (error instanceof UserError) throw notFound(FILE_NOT_FOUND);
    throw error;
  }
  if (access.conversation.id !== row.conversationId) throw notFound(FILE_NOT_FOUND);
  const body = await openedBlobStream(ctx, row.blobOrganisationId ?? row.organisationId, row.storageKey);
  if (!body) {
    logError("A chat image's bytes are missing from the blob store", undefined, { messageId });
    throw notFound(FILE_NOT_FOUND);
  }
  return { mimeType: row.mimeType, sizeBytes: row.sizeBytes, body };
}
