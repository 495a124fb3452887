CREATE TABLE "report_notices" (
	"submission_id" uuid PRIMARY KEY,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "report_notices_created_at_index" ON "report_notices" ("created_at");--> statement-breakpoint
ALTER TABLE "report_notices" ADD CONSTRAINT "report_notices_submission_id_report_submissions_id_fkey" FOREIGN KEY ("submission_id") REFERENCES "report_submissions"("id") ON DELETE CASCADE;