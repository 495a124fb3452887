CREATE TABLE "platform_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"master_key_id" text NOT NULL,
	"wrapped_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"active_from" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "platform_keys_active_from_index" ON "platform_keys" ("active_from");