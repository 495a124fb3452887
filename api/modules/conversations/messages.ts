import { and, count, desc, eq, inArray, lt, ne, or } from "drizzle-orm";
import * as v from "valibot";
import { reportConversationMessages, reportConversations, reportSubmissions, users } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { parseWith } from "../../lib/validation.ts";
import { TERMINAL_SUBMISSION_STATUSES } from "../../shared/enums.ts";
import { recordActivity } from "../audit/service.ts";
import { conversationFor } from "./access.ts";

export const CHAT_PAGE_SIZE = 10;
export const CONVERSATION_CLOSED = "This conversation is closed";

export const messageTopic = (submissionId: string) => `conversation.message.${submissionId}`;

export interface MessageView {
  id: string;
  type: "Text" | "Image" | "System";
  message: string;
  from: "Guest" | "User";
  fromUser: { id: string; firstName: string; lastName: string } | null;
  imageURL: string | null;
  createdAt: Date;
  read: boolean;
  readAt: Date | null;
}

async function viewsOf(ctx: Ctx, rows: (typeof reportConversationMessages.$inferSelect)[]): Promise<MessageView[]> {
  const userIds = [...new Set(rows.map((row) => row.fromUserId).filter((id): id is string => id !== null))];
  const people = userIds.length ? await ctx.db.select({ id: users.id, firstName: users.firstName, lastName: users.lastName }).from(users).where(inArray(users.id, userIds)) : [];
  const byId = new Map(people.map((person) => [person.id, person]));
  return rows.map((row) => {
    const person = row.fromUserId ? byId.get(row.fromUserId) : undefined;
    // Reporters see staff by first name and last initial only, as the console shows assignees.
    const fromUser = person ? { id: person.id, firstName: person.firstName, lastName: ctx.actor.kind === "reporter" ? person.lastName.slice(0, 1) : person.lastName } : null;
    return {
      id: row.id,
      type: row.type,
      message: row.message,
      from: row.from,
      fromUser,
      imageURL: row.imageBlobId ? `/api/files/chat-images/${row.id}` : null,
      createdAt: row.createdAt,
      read: row.state === "Seen",
      readAt: row.readAt,
    };
  });
}

/** Up to `last` messages before the message `before` (newest page first), returned oldest first. */
export async function listMessages(ctx: Ctx, args: { reportSubmissionID?: string | null; last?: number | null; before?: string | null }) {
  const access = await conversationFor(ctx, ctx.db, args.reportSubmissionID, "ReportConversationRead");
  const limit = args.last && args.last > 0 && args.last <= 50 ? args.last : CHAT_PAGE_SIZE;
  const filters = [eq(reportConversationMessages.conversationId, access.conversation.id)];
  if (args.before) {
    if (!isUuid(args.before)) throw new UserError("BAD_USER_INPUT", "Invalid cursor");
    const [cursor] = await ctx.db.select().from(reportConversationMessages).where(and(eq(reportConversationMessages.id, args.before), eq(reportConversationMessages.conversationId, access.conversation.id)));
    if (!cursor) throw new UserError("BAD_USER_INPUT", "Invalid cursor");
    filters.push(or(lt(reportConversationMessages.createdAt, cursor.createdAt), and(eq(reportConversationMessages.createdAt, cursor.createdAt), lt(reportConversationMessages.id, cursor.id)))!);
  }
  const rows = await ctx.db
    .select()
    .from(reportConversationMessages)
    .where(and(...filters))
    .orderBy(desc(reportConversationMessages.createdAt), desc(reportConversationMessages.id))
    .limit(limit + 1);
  const hasMore = rows.length > limit;
  return { messages: await viewsOf(ctx, rows.slice(0, limit).reverse()), hasMore };
}

export const SendInput = v.object({
  type: v.picklist(["Text"], "Only text messages can be sent here"),
  message: v.pipe(v.string(), v.trim(), v.nonEmpty("Required"), v.maxLength(10_000, "Messages can be at most 10000 characters")),
});

/**
 * Sends a chat message. A reporter cannot write into a closed report; staff writing into a
 * concluded conversation reopen the report first (spec), which the console's report policy governs.
 */
export async function sendMessage(ctx: Ctx, reportSubmissionID: string | null | undefined, input: unknown): Promise<MessageView> {
  const parsed = parseWith(SendInput, input);
  const row = await ctx.db.transaction(async (tx) => {
    const access = await conversationFor(ctx, tx, reportSubmissionID, "ReportConversationCreate");
    await tx.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.id, access.submission.id)).for("update");
    const closed = (TERMINAL_SUBMISSION_STATUSES as readonly string[]).includes(access.submission.status) || access.conversation.concluded || access.submission.archived;
    if (access.side === "Guest" && closed) throw new UserError("CONFLICT", CONVERSATION_CLOSED);
    if (access.side === "User" && closed) throw new UserError("CONFLICT", "Re-open the report before replying.");
    const now = new Date();
    const [message] = await tx
      .insert(reportConversationMessages)
      .values({ conversationId: access.conversation.id, organisationId: access.submission.organisationId, type: "Text", message: parsed.message, from: access.side, fromUserId: access.userId, createdAt: now })
      .returning();
    await tx.update(reportConversations).set({ lastMessageAt: now }).where(eq(reportConversations.id, access.conversation.id));
    await tx.update(reportSubmissions).set({ updatedAt: now }).where(eq(reportSubmissions.id, access.submission.id));
    await recordActivity(tx, access.userId ? { userId: access.userId } : { kind: "anonymous" }, { organisationId: access.submission.organisationId, objectType: "ReportSubmission", objectId: access.submission.id, objectCode: access.submission.reportId, action: "SendMessage" });
    return { message: message!, submissionId: access.submission.id };
  });
  await ctx.services.pubsub.publish(messageTopic(row.submissionId), { action: "new", messageId: row.message.id });
  return (await viewsOf(ctx, [row.message]))[0]!;
}

/** Marks the other side's messages as seen; returns how many changed. */
export async function readMessages(ctx: Ctx, reportSubmissionID: string | null | undefined, messageIDs: string[]): Promise<number> {
  const ids = messageIDs.filter(isUuid).slice(0, 200);
  if (ids.length === 0) return 0;
  const access = await conversationFor(ctx, ctx.db, reportSubmissionID, "ReportConversationRead");
  const now = new Date();
  const changed = await ctx.db
    .update(reportConversationMessages)
    .set({ state: "Seen", readAt: now })
    .where(and(eq(reportConversationMessages.conversationId, access.conversation.id), inArray(reportConversationMessages.id, ids), ne(reportConversationMessages.from, access.side), eq(reportConversationMessages.state, "New")))
    .returning({ id: reportConversationMessages.id });
  for (const row of changed) await ctx.services.pubsub.publish(messageTopic(access.submission.id), { action: "seen", messageId: row.id });
  return changed.length;
}

/** Messages from the other side not yet seen. */
export async function unreadCount(ctx: Ctx, reportSubmissionID: string | null | undefined): Promise<number> {
  const access = await conversationFor(ctx, ctx.db, reportSubmissionID, "ReportConversationRead");
  const [row] = await ctx.db
    .select({ n: count() })
    .from(reportConversationMessages)
    .where(and(eq(reportConversationMessages.conversationId, access.conversation.id), ne(reportConversationMessages.from, access.side), eq(reportConversationMessages.state, "New")));
  return row?.n ?? 0;
}

export async function messageById(ctx: Ctx, id: string): Promise<MessageView | null> {
  const rows = await ctx.db.select().from(reportConversationMessages).where(eq(reportConversationMessages.id, id));
  return rows.length ? (await viewsOf(ctx, rows))[0]! : null;
}

