CREATE TABLE "background_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"kind" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"dedupe_key" text,
	"state" text DEFAULT 'queued' NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"lock_token" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "background_jobs_dedupe_key_index" ON "background_jobs" ("dedupe_key");--> statement-breakpoint
CREATE INDEX "background_jobs_state_run_at_index" ON "background_jobs" ("state","run_at");--> statement-breakpoint
CREATE INDEX "background_jobs_state_finished_at_index" ON "background_jobs" ("state","finished_at");