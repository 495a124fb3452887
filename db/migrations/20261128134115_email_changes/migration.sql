CREATE TABLE "email_changes" (
	"user_id" uuid PRIMARY KEY,
	"new_email" text NOT NULL,
	"confirm_token_hash" text NOT NULL UNIQUE,
	"cancel_token_hash" text NOT NULL UNIQUE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "email_changes_expires_at_index" ON "email_changes" ("expires_at");--> statement-breakpoint
ALTER TABLE "email_changes" ADD CONSTRAINT "email_changes_user_id_users_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE;