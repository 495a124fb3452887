import type { Database } from "../../../db/client.ts";
import type { Ctx } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { incomingImage, prepareChatImage } from "../files/chat-image.ts";
import { storeCheckedFile } from "../files/stored-blob.ts";
import type { ConversationAccess } from "./access.ts";
import type { MessageView } from "./messages.ts";
import { IMAGE_UPLOADS_NOT_ALLOWED, reporterMayUploadImages } from "./upload-policy.ts";
import { announce, insertMessage, writableConversation } from "./write.ts";

/** A conversation open for writing whose reporter, if that is the caller, may send images. */
async function imageConversation(ctx: Ctx, db: Database, reportSubmissionID: string | null | undefined): Promise<ConversationAccess> {
  const access = await writableConversation(ctx, db, reportSubmissionID);
  if (access.side === "Guest" && !(await reporterMayUploadImages(db, access.submission))) throw new UserError("FORBIDDEN", IMAGE_UPLOADS_NOT_ALLOWED);
  return access;
}

/**
 * Sends an image into a report's chat. The conversation is checked before the file is looked at,
 * the file is checked and stripped of metadata before anything is stored, and the bytes go to the
 * blob store before the rows (a blob store cannot join a transaction): when the rows are not
 * written the bytes are removed again, so no image is left without its message.
 */
export async function sendImageMessage(ctx: Ctx, reportSubmissionID: string | null | undefined, caption: string, file: File): Promise<MessageView> {
  // Refuse before the file is read or anything stored (outside a transaction the row lock ends with its statement).
  const outside = await imageConversation(ctx, ctx.db, reportSubmissionID);
  // A reporter's image waits in the pool's open lane, staff's in the trusted one (decision 060).
  const image = await prepareChatImage(incomingImage(file), ctx.actor.kind === "staff" ? "trusted" : "open");
  const checked = { purpose: "ChatImage" as const, organisationId: outside.submission.organisationId, fileName: image.fileName, mimeType: image.mimeType, bytes: image.bytes };
  const written = await storeCheckedFile(ctx, checked, (insertBlobRow) =>
    ctx.db.transaction(async (tx) => {
      // Again inside the transaction, with the report locked: it may have been closed meanwhile.
      const access = await imageConversation(ctx, tx, reportSubmissionID);
      const imageBlobId = await insertBlobRow(tx);
      // No file name in the audit log, as for attachments: it is the sender's words and may name them.
      return insertMessage(ctx, tx, access, { type: "Image", message: caption, imageBlobId }, { message_type: "Image", mime_type: image.mimeType, size_bytes: image.bytes.length });
    }),
  );
  return announce(ctx, written);
}
