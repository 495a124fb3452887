ALTER TABLE "report_conversations" ADD COLUMN "awaiting_reply_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_conversations" ADD COLUMN "reminders_sent" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_conversations" ADD COLUMN "last_reminded_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "report_conversations_awaiting_reply_idx" ON "report_conversations" ("awaiting_reply_since") WHERE "awaiting_reply_since" is not null;--> statement-breakpoint
-- Conversations already waiting for a reply: since the reporter's first message after the last staff
-- one. Marked as reminded now, so their first reminder comes one interval after the upgrade rather
-- than all of them at once as it starts.
UPDATE "report_conversations" AS c SET "awaiting_reply_since" = w.since, "last_reminded_at" = now()
FROM (
  SELECT m."conversation_id", min(m."created_at") AS since FROM "report_conversation_messages" AS m
  WHERE m."from" = 'Guest' AND m."type" <> 'System' AND m."created_at" > coalesce(
    (SELECT max(s."created_at") FROM "report_conversation_messages" AS s WHERE s."conversation_id" = m."conversation_id" AND s."from" = 'User'),
    '-infinity'::timestamptz)
  GROUP BY m."conversation_id"
) AS w
WHERE w."conversation_id" = c."id";
