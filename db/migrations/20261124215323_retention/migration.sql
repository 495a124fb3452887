ALTER TABLE "organisations" ADD COLUMN "retention_months" integer;--> statement-breakpoint
ALTER TABLE "report_submissions" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_submissions" ADD COLUMN "legal_hold" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "report_submissions" ADD COLUMN "legal_hold_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_submissions" ADD COLUMN "legal_hold_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "report_submissions" ADD COLUMN "retention_warned_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "report_submissions_retention_idx" ON "report_submissions" ("organisation_id","closed_at") WHERE "closed_at" is not null and not "legal_hold" and "deleted_at" is null;--> statement-breakpoint
ALTER TABLE "report_submissions" ADD CONSTRAINT "report_submissions_legal_hold_by_user_id_users_id_fkey" FOREIGN KEY ("legal_hold_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
-- Reports closed before the upgrade: closed when their last closing note was written (decision 052);
-- one closed without such a note (set directly) counts from its last change, never from nothing.
UPDATE "report_submissions" AS s SET "closed_at" = coalesce((
  SELECT max(n."created_at") FROM "report_submission_notes" AS n
  WHERE n."submission_id" = s."id"
    AND n."new_status" IN ('Closed', 'Completed', 'Rejected', 'Investigated', 'NotInvestigated', 'Substantiated', 'NotSubstantiated', 'ActionTaken', 'NoActionTaken')
), s."updated_at")
WHERE s."completed" AND s."deleted_at" IS NULL
  AND s."status" IN ('Closed', 'Completed', 'Rejected', 'Investigated', 'NotInvestigated', 'Substantiated', 'NotSubstantiated', 'ActionTaken', 'NoActionTaken');
