CREATE TABLE "saved_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"organisation_id" uuid NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "report_forms" ADD COLUMN "acknowledgement_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "saved_replies_organisation_id_archived_index" ON "saved_replies" ("organisation_id","archived");--> statement-breakpoint
ALTER TABLE "saved_replies" ADD CONSTRAINT "saved_replies_organisation_id_organisations_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;