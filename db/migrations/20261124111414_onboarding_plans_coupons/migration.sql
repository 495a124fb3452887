CREATE TABLE "coupons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"code" text NOT NULL,
	"name" text NOT NULL,
	"amount_off_cents" integer,
	"percent_off" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"name" text NOT NULL,
	"seats" integer NOT NULL,
	"price_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "confirmation_hash" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "confirmation_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "browser_hash" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "sso_identity" text;--> statement-breakpoint
CREATE UNIQUE INDEX "prospects_confirmation_hash_index" ON "prospects" ("confirmation_hash");--> statement-breakpoint
CREATE INDEX "prospects_browser_hash_index" ON "prospects" ("browser_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "coupons_code_lower_idx" ON "coupons" (lower("code"));