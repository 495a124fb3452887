ALTER TABLE "organisations" ADD COLUMN "legal_clocks_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "report_submissions" ADD COLUMN "acknowledged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_submissions" ADD COLUMN "feedback_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_submissions" ADD COLUMN "acknowledge_reminder_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_submissions" ADD COLUMN "feedback_reminder_sent_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "report_submissions_awaiting_ack_idx" ON "report_submissions" ("organisation_id","completed_at") WHERE "completed" and "deleted_at" is null and "acknowledged_at" is null;--> statement-breakpoint
CREATE INDEX "report_submissions_awaiting_feedback_idx" ON "report_submissions" ("organisation_id","completed_at") WHERE "completed" and "deleted_at" is null and "feedback_at" is null;--> statement-breakpoint
-- Reports received before the upgrade: the first staff message acknowledged them, and closing one with
-- an outcome gave its feedback (decision 050), so their clocks show what actually happened.
UPDATE "report_submissions" AS s SET "acknowledged_at" = a.first_at
FROM (
  SELECT c."submission_id", min(m."created_at") AS first_at FROM "report_conversation_messages" AS m
  JOIN "report_conversations" AS c ON c."id" = m."conversation_id"
  WHERE m."from" = 'User'
  GROUP BY c."submission_id"
) AS a
WHERE a."submission_id" = s."id";--> statement-breakpoint
UPDATE "report_submissions" AS s SET "feedback_at" = f.first_at
FROM (
  SELECT n."submission_id", min(n."created_at") AS first_at FROM "report_submission_notes" AS n
  WHERE n."new_status" IN ('Closed', 'Completed', 'Rejected', 'Investigated', 'NotInvestigated', 'Substantiated', 'NotSubstantiated', 'ActionTaken', 'NoActionTaken')
  GROUP BY n."submission_id"
) AS f
WHERE f."submission_id" = s."id";
