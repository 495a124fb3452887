import * as v from "valibot";
import type { Ctx } from "../../context.ts";
import { parseWith } from "../../lib/validation.ts";
import { TEXT_LIMITS } from "../../shared/limits.ts";
import { conversationFor } from "./access.ts";
import { sendImageMessage } from "./chat-images.ts";
import type { MessageView } from "./messages.ts";
import { announce, insertMessage, writableConversation } from "./write.ts";

const { max: MAX_MESSAGE_LENGTH, tooLong: TOO_LONG } = TEXT_LIMITS.chatMessage;

const TextInput = v.object({
  type: v.literal("Text"),
  message: v.pipe(v.string("Required"), v.trim(), v.nonEmpty("Required"), v.maxLength(MAX_MESSAGE_LENGTH, TOO_LONG)),
  // A file on a text message would be dropped without a word; refusing says what went wrong.
  imageFile: v.optional(v.never("Only image messages can carry a file")),
  // The object's message is the one a missing key gets: an absent text (or file below) is "Required".
}, "Required");

const ImageInput = v.object({
  type: v.literal("Image"),
  /** An optional caption; the client sends "" when there is none. */
  message: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(MAX_MESSAGE_LENGTH, TOO_LONG)), ""),
  imageFile: v.instance(File, "Required"),
}, "Required");

export const SendInput = v.variant("type", [TextInput, ImageInput], "Only text and image messages can be sent here");

/** Sends a chat message: text, or an image (chat-images.ts) with an optional caption. */
export async function sendMessage(ctx: Ctx, reportSubmissionID: string | null | undefined, input: unknown): Promise<MessageView> {
  // The conversation is found, and the caller allowed in it, before the message is judged (decision 065).
  await conversationFor(ctx, ctx.db, reportSubmissionID, "ReportConversationCreate");
  const parsed = parseWith(SendInput, input);
  if (parsed.type === "Image") return sendImageMessage(ctx, reportSubmissionID, parsed.message, parsed.imageFile);
  const written = await ctx.db.transaction(async (tx) => {
    const access = await writableConversation(ctx, tx, reportSubmissionID);
    return insertMessage(ctx, tx, access, { type: "Text", message: parsed.message });
  });
  return announce(ctx, written);
}
