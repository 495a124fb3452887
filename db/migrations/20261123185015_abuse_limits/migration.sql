CREATE TABLE "proof_of_work_keys" (
	"id" integer PRIMARY KEY,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proof_of_work_redemptions" (
	"signature" text PRIMARY KEY,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_failures" (
	"subject_key" text PRIMARY KEY,
	"score" double precision NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_submissions" ADD COLUMN "password_chosen" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "report_submissions_drafts_idx" ON "report_submissions" ("updated_at") WHERE "status" = 'Draft';--> statement-breakpoint
CREATE INDEX "proof_of_work_redemptions_expires_at_index" ON "proof_of_work_redemptions" ("expires_at");--> statement-breakpoint
CREATE INDEX "sign_in_failures_updated_at_index" ON "sign_in_failures" ("updated_at");