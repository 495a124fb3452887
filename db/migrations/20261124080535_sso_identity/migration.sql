ALTER TABLE "users" ADD COLUMN "sso_identity" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_sso_identity_idx" ON "users" ("sso_identity");