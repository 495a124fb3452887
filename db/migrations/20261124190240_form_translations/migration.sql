CREATE TABLE "form_translation_overrides" (
	"form_id" uuid,
	"target_language" text,
	"name" text,
	"source_hash" text,
	"source_text" text NOT NULL,
	"translated_text" text,
	"reviewed" boolean DEFAULT false NOT NULL,
	"updated_by_user_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone,
	CONSTRAINT "form_translation_overrides_pkey" PRIMARY KEY("form_id","target_language","name","source_hash")
);
--> statement-breakpoint
CREATE TABLE "translation_cache" (
	"provider" text,
	"source_language" text,
	"target_language" text,
	"format" text,
	"source_hash" text,
	"translated_text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "translation_cache_pkey" PRIMARY KEY("provider","source_language","target_language","format","source_hash")
);
--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "form_language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
CREATE INDEX "form_translation_overrides_form_id_target_language_index" ON "form_translation_overrides" ("form_id","target_language");--> statement-breakpoint
ALTER TABLE "form_translation_overrides" ADD CONSTRAINT "form_translation_overrides_form_id_report_forms_id_fkey" FOREIGN KEY ("form_id") REFERENCES "report_forms"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "form_translation_overrides" ADD CONSTRAINT "form_translation_overrides_updated_by_user_id_users_id_fkey" FOREIGN KEY ("updated_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL;