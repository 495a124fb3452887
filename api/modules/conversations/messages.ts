import { and, count, desc, eq, inArray, lt, ne, or } from "drizzle-orm";
import { reportConversationMessages, users } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { conversationFor } from "./access.ts";

export const CHAT_PAGE_SIZE = 10;
export const CONVERSATION_CLOSED = "This conversation is closed";

export const chatImageUrl = (messageId: string) => `/api/files/chat-images/${messageId}`;

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

/**
 * Messages as a reader sees them: the text opened (it is stored sealed), the sender named. Every
 * read of a chat goes through here, the reporter's follow-up page and the live subscription too.
 */
export async function viewsOf(ctx: Ctx, rows: (typeof reportConversationMessages.$inferSelect)[]): Promise<MessageView[]> {
  const userIds = [...new Set(rows.map((row) => row.fromUserId).filter((id): id is string => id !== null))];
  const people = userIds.length ? await ctx.db.select({ id: users.id, firstName: users.firstName, lastName: users.lastName }).from(users).where(inArray(users.id, userIds)) : [];
  const sealers = await ctx.services.keyRing.sealers(ctx.db, rows.map((row) => row.organisationId));
  const byId = new Map(people.map((person) => [person.id, person]));
  return rows.map((row) => {
    const person = row.fromUserId ? byId.get(row.fromUserId) : undefined;
    // Reporters see staff by first name and last initial only, as the console shows assignees.
    const fromUser = person ? { id: person.id, firstName: person.firstName, lastName: ctx.actor.kind === "reporter" ? person.lastName.slice(0, 1) : person.lastName } : null;
    return {
      id: row.id,
      type: row.type,
      message: sealers.get(row.organisationId)!.openText("message", row.message),
      from: row.from,
      fromUser,
      imageURL: row.imageBlobId ? chatImageUrl(row.id) : null,
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

/** Marks the other side's messages as seen; returns how many changed. */
export async function readMessages(ctx: Ctx, reportSubmissionID: string | null | undefined, messageIDs: string[]): Promise<number> {
  const access = await conversationFor(ctx, ctx.db, reportSubmissionID, "ReportConversationRead");
  const ids = messageIDs.filter(isUuid).slice(0, 200);
  if (ids.length === 0) return 0;
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

