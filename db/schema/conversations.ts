import { sql } from "drizzle-orm";
import { boolean, index, smallint, snakeCase, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, inPlain } from "./columns.ts";
import { messageSender, messageState, messageType, presenceStatus } from "./enums.ts";
import { blobs } from "./blobs.ts";
import { organisations, users } from "./identity.ts";
import { reportSubmissions } from "./submissions.ts";

/** The chat between a report's reporter and its assigned staff; one per submission. */
export const reportConversations = snakeCase.table(
  "report_conversations",
  {
    id: id(),
    submissionId: uuid()
      .notNull()
      .references(() => reportSubmissions.id, { onDelete: "cascade" }),
    organisationId: uuid()
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    concluded: boolean().notNull().default(false),
    guestStatus: presenceStatus().notNull().default("Offline"),
    guestLastSeenAt: timestamp({ withTimezone: true }),
    guestLastTypedAt: timestamp({ withTimezone: true }),
    staffStatus: presenceStatus().notNull().default("Offline"),
    staffLastSeenAt: timestamp({ withTimezone: true }),
    staffLastTypedAt: timestamp({ withTimezone: true }),
    lastMessageAt: timestamp({ withTimezone: true }),
    /**
     * When the reporter's oldest message without a staff reply since was sent; null when staff
     * have replied to everything (docs/decisions/041-stale-message-reminders.md). Set and cleared
     * by the message's own write, so the reminders cost the chat no statement of their own.
     */
    awaitingReplySince: timestamp({ withTimezone: true }),
    /** Reminders sent for the current wait, and when the last went out: the reminders' whole state. */
    remindersSent: smallint().notNull().default(0),
    lastRemindedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex().on(t.submissionId),
    index().on(t.organisationId, t.lastMessageAt),
    // Only conversations waiting for a reply are in it: the reminders' sweep reads nothing else.
    index("report_conversations_awaiting_reply_idx").on(t.awaitingReplySince).where(sql`${t.awaitingReplySince} is not null`),
  ],
);

export const reportConversationMessages = snakeCase.table(
  "report_conversation_messages",
  {
    id: id(),
    conversationId: uuid()
      .notNull()
      .references(() => reportConversations.id, { onDelete: "cascade" }),
    organisationId: uuid()
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    type: messageType().notNull(),
    message: text().notNull().default(""),
    from: messageSender().notNull(),
    fromUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    imageBlobId: uuid().references(() => blobs.id, { onDelete: "set null" }),
    state: messageState().notNull().default("New"),
    readAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.conversationId, t.createdAt),
    index().on(t.organisationId, t.from, t.state),
    // Only messages stored before encryption: what the start-up's sealing looks for (decision 059).
    index("report_conversation_messages_in_plain_idx").on(t.id).where(inPlain(t.message)),
  ],
);
