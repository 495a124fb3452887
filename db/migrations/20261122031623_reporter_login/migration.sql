CREATE TABLE "reporter_handoffs" (
	"token_hash" text PRIMARY KEY,
	"submission_id" uuid NOT NULL,
	"organisation_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_submissions" ADD COLUMN "failed_login_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_submissions" ADD COLUMN "last_failed_login_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reporter_handoffs" ADD CONSTRAINT "reporter_handoffs_submission_id_report_submissions_id_fkey" FOREIGN KEY ("submission_id") REFERENCES "report_submissions"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "reporter_handoffs" ADD CONSTRAINT "reporter_handoffs_organisation_id_organisations_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;