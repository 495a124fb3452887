import { eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reportConversationMessages, reportConversations, reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { TERMINAL_SUBMISSION_STATUSES } from "../../shared/enums.ts";
import { recordActivity } from "../audit/service.ts";
import { conversationFor, type ConversationAccess } from "./access.ts";
import { CONVERSATION_CLOSED, messageTopic, viewsOf, type MessageView } from "./messages.ts";

/** The steps every chat message takes, text or image: the same closed rules, the same audit, the same live event. */

type MessageRow = typeof reportConversationMessages.$inferSelect;

export interface WrittenMessage {
  message: MessageRow;
  submissionId: string;
}

/**
 * The conversation the caller may write into, with its report locked so a message cannot slip in
 * while staff close it. A reporter cannot write into a closed report; staff writing into a
 * concluded conversation reopen the report first (spec), which the console's report policy governs.
 */
export async function writableConversation(ctx: Ctx, tx: Database, reportSubmissionID: string | null | undefined): Promise<ConversationAccess> {
  const access = await conversationFor(ctx, tx, reportSubmissionID, "ReportConversationCreate");
  const [locked] = await tx.select().from(reportSubmissions).where(eq(reportSubmissions.id, access.submission.id)).for("update");
  const submission = locked ?? access.submission;
  const closed = (TERMINAL_SUBMISSION_STATUSES as readonly string[]).includes(submission.status) || access.conversation.concluded || submission.archived;
  if (access.side === "Guest" && closed) throw new UserError("CONFLICT", CONVERSATION_CLOSED);
  if (access.side === "User" && closed) throw new UserError("CONFLICT", "Re-open the report before replying.");
  return { ...access, submission };
}

/** The message row, the conversation's and report's timestamps and the audit entry, in the caller's transaction. */
export async function insertMessage(
  tx: Database,
  access: ConversationAccess,
  values: { type: "Text" | "Image"; message: string; imageBlobId?: string },
  metadata?: Record<string, unknown>,
): Promise<WrittenMessage> {
  const now = new Date();
  const [message] = await tx
    .insert(reportConversationMessages)
    .values({ conversationId: access.conversation.id, organisationId: access.submission.organisationId, ...values, from: access.side, fromUserId: access.userId, createdAt: now })
    .returning();
  await tx.update(reportConversations).set({ lastMessageAt: now }).where(eq(reportConversations.id, access.conversation.id));
  await tx.update(reportSubmissions).set({ updatedAt: now }).where(eq(reportSubmissions.id, access.submission.id));
  await recordActivity(tx, access.userId ? { userId: access.userId } : { kind: "anonymous" }, {
    organisationId: access.submission.organisationId,
    objectType: "ReportSubmission",
    objectId: access.submission.id,
    objectCode: access.submission.reportId,
    action: "SendMessage",
    ...(metadata ? { metadata } : {}),
  });
  return { message: message!, submissionId: access.submission.id };
}

/** After the commit: the live event for both sides, and the message as the sender sees it. */
export async function announce(ctx: Ctx, written: WrittenMessage): Promise<MessageView> {
  await ctx.services.pubsub.publish(messageTopic(written.submissionId), { action: "new", messageId: written.message.id });
  return (await viewsOf(ctx, [written.message]))[0]!;
}
