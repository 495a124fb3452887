CREATE TYPE "audit_object_type" AS ENUM('Self', 'User', 'Organisation', 'Blob', 'Tag', 'ReportSubmission', 'ReportForm', 'OnboardInvite');--> statement-breakpoint
CREATE TYPE "auth_token_purpose" AS ENUM('VerifyEmail', 'ResetPassword', 'MagicLogin');--> statement-breakpoint
CREATE TYPE "blob_purpose" AS ENUM('Attachment', 'ChatImage', 'OrganisationLogo', 'Avatar', 'ResourceDocument');--> statement-breakpoint
CREATE TYPE "condition_match_type" AS ENUM('All', 'Any');--> statement-breakpoint
CREATE TYPE "font_family" AS ENUM('Helvetica Neue', 'Roboto', 'Montserrat');--> statement-breakpoint
CREATE TYPE "form_status" AS ENUM('Draft', 'Active');--> statement-breakpoint
CREATE TYPE "form_type" AS ENUM('Custom', 'Enquiry');--> statement-breakpoint
CREATE TYPE "guest_invite_status" AS ENUM('Opened', 'Approved', 'Rejected', 'Aborted');--> statement-breakpoint
CREATE TYPE "interval_unit" AS ENUM('Hour', 'Day');--> statement-breakpoint
CREATE TYPE "invite_status" AS ENUM('Invited', 'Onboarded');--> statement-breakpoint
CREATE TYPE "invite_type" AS ENUM('Organisation', 'Member');--> statement-breakpoint
CREATE TYPE "message_sender" AS ENUM('Guest', 'User');--> statement-breakpoint
CREATE TYPE "message_state" AS ENUM('New', 'Seen');--> statement-breakpoint
CREATE TYPE "message_type" AS ENUM('Text', 'Image', 'System');--> statement-breakpoint
CREATE TYPE "presence_status" AS ENUM('Offline', 'Online', 'Typing');--> statement-breakpoint
CREATE TYPE "priority" AS ENUM('Low', 'Medium', 'High');--> statement-breakpoint
CREATE TYPE "role_name" AS ENUM('SUPER_ADMIN', 'ORGANISATION_OWNER', 'ORGANISATION_ADMIN', 'MEMBER', 'GUEST_MEMBER');--> statement-breakpoint
CREATE TYPE "submission_status" AS ENUM('Draft', 'New', 'Assigned', 'Closed', 'Rejected', 'Completed', 'Investigated', 'NotInvestigated', 'Substantiated', 'NotSubstantiated', 'ActionTaken', 'NoActionTaken');--> statement-breakpoint
CREATE TYPE "widget_type" AS ENUM('Section', 'ShortText', 'LongText', 'Select', 'Checkbox', 'Radio', 'Date', 'Note');--> statement-breakpoint
CREATE TABLE "blobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"organisation_id" uuid,
	"purpose" "blob_purpose" NOT NULL,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_tokens" (
	"token_hash" text PRIMARY KEY,
	"user_id" uuid NOT NULL,
	"purpose" "auth_token_purpose" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "guest_memberships" (
	"user_id" uuid,
	"organisation_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "guest_memberships_pkey" PRIMARY KEY("user_id","organisation_id")
);
--> statement-breakpoint
CREATE TABLE "organisations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"login_code" text,
	"abn" text DEFAULT '' NOT NULL,
	"logo_blob_id" uuid,
	"logo_padding_pixels" smallint DEFAULT 10 NOT NULL,
	"logo_width_pixels" smallint DEFAULT 50 NOT NULL,
	"font_family" "font_family" DEFAULT 'Helvetica Neue'::"font_family" NOT NULL,
	"stale_message_interval_number" integer DEFAULT 7 NOT NULL,
	"stale_message_interval_unit" "interval_unit" DEFAULT 'Day'::"interval_unit" NOT NULL,
	"open_seat_number" integer DEFAULT 10 NOT NULL,
	"general_enquiry_enabled" boolean DEFAULT false NOT NULL,
	"general_enquiry_label" text DEFAULT 'Ask a Question' NOT NULL,
	"general_enquiry_welcome_message_content" text DEFAULT '' NOT NULL,
	"allow_general_enquiry_chat_file_uploads" boolean DEFAULT false NOT NULL,
	"portal_welcome_message_enabled" boolean DEFAULT false NOT NULL,
	"portal_welcome_message_content" text DEFAULT '' NOT NULL,
	"show_logo_on_report_forms" boolean DEFAULT true NOT NULL,
	"enable_email_auth2_fa" boolean DEFAULT false NOT NULL,
	"enable_sso" boolean DEFAULT false NOT NULL,
	"enable_form_translations" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"name" "role_name" NOT NULL,
	"rank" smallint NOT NULL,
	"label" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY,
	"user_id" uuid NOT NULL,
	"acting_organisation_id" uuid,
	"two_factor_passed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"email" text NOT NULL,
	"username" text,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"password_hash" text,
	"role_id" uuid NOT NULL,
	"organisation_id" uuid,
	"avatar_blob_id" uuid,
	"verified" boolean DEFAULT false NOT NULL,
	"suspended" boolean DEFAULT false NOT NULL,
	"is_sso" boolean DEFAULT false NOT NULL,
	"two_factor_secret" text,
	"two_factor_authentication_activated" boolean DEFAULT false NOT NULL,
	"two_factor_authentication_is_set" boolean DEFAULT false NOT NULL,
	"recovery_code_hash" text,
	"failed_login_count" integer DEFAULT 0 NOT NULL,
	"last_failed_login_at" timestamp with time zone,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "onboard_invites" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"organisation_id" uuid NOT NULL,
	"role_id" uuid NOT NULL,
	"type" "invite_type" DEFAULT 'Member'::"invite_type" NOT NULL,
	"status" "invite_status" DEFAULT 'Invited'::"invite_status" NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by_user_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "organisation_email_subscribers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"organisation_id" uuid NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prospects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"type" "invite_type" NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"organisation_name" text,
	"organisation_abn" text,
	"password_hash" text,
	"invite_id" uuid,
	"product_plan_id" text,
	"completed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_form_builds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"form_id" uuid,
	"template_id" uuid,
	"revision" integer NOT NULL,
	"author_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_form_builds_one_owner" CHECK (("form_id" is null) <> ("template_id" is null))
);
--> statement-breakpoint
CREATE TABLE "report_form_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"form_id" uuid NOT NULL,
	"organisation_id" uuid NOT NULL,
	"author_user_id" uuid,
	"note" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "report_form_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"name" text NOT NULL,
	"current_build_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "report_form_widgets" (
	"build_id" uuid,
	"id" text,
	"position" integer NOT NULL,
	"type" "widget_type" NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"tooltip" text DEFAULT '' NOT NULL,
	"caption" text DEFAULT '' NOT NULL,
	"answers" text[] DEFAULT '{}'::text[] NOT NULL,
	"page_name" text,
	"condition" jsonb,
	CONSTRAINT "report_form_widgets_pkey" PRIMARY KEY("build_id","id")
);
--> statement-breakpoint
CREATE TABLE "report_forms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"organisation_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" "form_type" DEFAULT 'Custom'::"form_type" NOT NULL,
	"status" "form_status" DEFAULT 'Draft'::"form_status" NOT NULL,
	"locked" boolean DEFAULT false NOT NULL,
	"welcome_message_title" text DEFAULT 'Welcome' NOT NULL,
	"welcome_message_content" text DEFAULT '' NOT NULL,
	"finish_message_title" text DEFAULT 'Report Submitted' NOT NULL,
	"finish_message_content" text DEFAULT '' NOT NULL,
	"assigned_to_support_message" text DEFAULT '' NOT NULL,
	"show_important_info_message" boolean DEFAULT false NOT NULL,
	"report_closed_message" text DEFAULT '' NOT NULL,
	"upload_files_message" text DEFAULT '' NOT NULL,
	"pin_hash" text,
	"show_logo" boolean DEFAULT true NOT NULL,
	"has_chat" boolean DEFAULT true NOT NULL,
	"allow_file_uploads" boolean DEFAULT false NOT NULL,
	"allow_chat_file_uploads" boolean DEFAULT false NOT NULL,
	"allowed_file_types" text[] DEFAULT '{}'::text[] NOT NULL,
	"theme" jsonb DEFAULT '{}' NOT NULL,
	"current_build_id" uuid,
	"deployed_build_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "guest_report_invites" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"submission_id" uuid NOT NULL,
	"organisation_id" uuid NOT NULL,
	"email" text NOT NULL,
	"user_id" uuid,
	"invited_by_user_id" uuid,
	"status" "guest_invite_status" DEFAULT 'Opened'::"guest_invite_status" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "report_submission_answers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"submission_id" uuid NOT NULL,
	"widget_id" text NOT NULL,
	"page" integer NOT NULL,
	"answer" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_submission_assignees" (
	"submission_id" uuid,
	"user_id" uuid,
	"is_owner" boolean DEFAULT false NOT NULL,
	"is_muted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_submission_assignees_pkey" PRIMARY KEY("submission_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "report_submission_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"submission_id" uuid NOT NULL,
	"blob_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"file_size_bytes" bigint NOT NULL,
	"mime_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_submission_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"submission_id" uuid NOT NULL,
	"organisation_id" uuid NOT NULL,
	"author_user_id" uuid,
	"note" text NOT NULL,
	"new_status" "submission_status",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "report_submission_tags" (
	"submission_id" uuid,
	"tag_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_submission_tags_pkey" PRIMARY KEY("submission_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "report_submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"organisation_id" uuid NOT NULL,
	"form_id" uuid NOT NULL,
	"build_id" uuid,
	"report_id" text,
	"status" "submission_status" DEFAULT 'Draft'::"submission_status" NOT NULL,
	"priority" "priority" DEFAULT 'Low'::"priority" NOT NULL,
	"completed" boolean DEFAULT false NOT NULL,
	"completed_at" timestamp with time zone,
	"password_hash" text,
	"internal_reference" text DEFAULT '' NOT NULL,
	"is_test" boolean DEFAULT false NOT NULL,
	"current_page" integer DEFAULT 0 NOT NULL,
	"deleted_at" timestamp with time zone,
	"deleted_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "reporter_sessions" (
	"token_hash" text PRIMARY KEY,
	"organisation_id" uuid NOT NULL,
	"submission_id" uuid,
	"unlocked_form_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"organisation_id" uuid NOT NULL,
	"name" text NOT NULL,
	"is_internal" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "report_conversation_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"conversation_id" uuid NOT NULL,
	"organisation_id" uuid NOT NULL,
	"type" "message_type" NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"from" "message_sender" NOT NULL,
	"from_user_id" uuid,
	"image_blob_id" uuid,
	"state" "message_state" DEFAULT 'New'::"message_state" NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"submission_id" uuid NOT NULL,
	"organisation_id" uuid NOT NULL,
	"concluded" boolean DEFAULT false NOT NULL,
	"guest_status" "presence_status" DEFAULT 'Offline'::"presence_status" NOT NULL,
	"guest_last_seen_at" timestamp with time zone,
	"guest_last_typed_at" timestamp with time zone,
	"staff_status" "presence_status" DEFAULT 'Offline'::"presence_status" NOT NULL,
	"staff_last_seen_at" timestamp with time zone,
	"staff_last_typed_at" timestamp with time zone,
	"last_message_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "resource_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"blob_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "resource_videos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"video_src" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user_activities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"organisation_id" uuid,
	"user_id" uuid,
	"parent_id" uuid,
	"is_grouped" boolean DEFAULT false NOT NULL,
	"object_type" "audit_object_type" NOT NULL,
	"object_id" text,
	"object_code" text,
	"action" text NOT NULL,
	"metadata" jsonb DEFAULT '{}' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "blobs_organisation_id_purpose_index" ON "blobs" ("organisation_id","purpose");--> statement-breakpoint
CREATE INDEX "auth_tokens_user_id_purpose_index" ON "auth_tokens" ("user_id","purpose");--> statement-breakpoint
CREATE INDEX "guest_memberships_organisation_id_index" ON "guest_memberships" ("organisation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "organisations_slug_index" ON "organisations" ("slug");--> statement-breakpoint
CREATE INDEX "organisations_archived_name_index" ON "organisations" ("archived","name");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_name_index" ON "roles" ("name");--> statement-breakpoint
CREATE INDEX "sessions_user_id_index" ON "sessions" ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_at_index" ON "sessions" ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_idx" ON "users" (lower("email"));--> statement-breakpoint
CREATE INDEX "users_organisation_id_last_name_first_name_index" ON "users" ("organisation_id","last_name","first_name");--> statement-breakpoint
CREATE INDEX "users_role_id_index" ON "users" ("role_id");--> statement-breakpoint
CREATE UNIQUE INDEX "onboard_invites_token_hash_index" ON "onboard_invites" ("token_hash");--> statement-breakpoint
CREATE INDEX "onboard_invites_organisation_id_archived_created_at_index" ON "onboard_invites" ("organisation_id","archived","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "organisation_email_subscribers_organisation_id_index" ON "organisation_email_subscribers" ("organisation_id");--> statement-breakpoint
CREATE INDEX "prospects_email_lower_idx" ON "prospects" (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "report_form_builds_form_id_revision_index" ON "report_form_builds" ("form_id","revision");--> statement-breakpoint
CREATE UNIQUE INDEX "report_form_builds_template_id_revision_index" ON "report_form_builds" ("template_id","revision");--> statement-breakpoint
CREATE INDEX "report_form_notes_form_id_archived_created_at_index" ON "report_form_notes" ("form_id","archived","created_at");--> statement-breakpoint
CREATE INDEX "report_form_templates_archived_name_index" ON "report_form_templates" ("archived","name");--> statement-breakpoint
CREATE UNIQUE INDEX "report_form_widgets_build_id_position_index" ON "report_form_widgets" ("build_id","position");--> statement-breakpoint
CREATE INDEX "report_forms_organisation_id_archived_name_index" ON "report_forms" ("organisation_id","archived","name");--> statement-breakpoint
CREATE INDEX "report_forms_organisation_id_type_index" ON "report_forms" ("organisation_id","type");--> statement-breakpoint
CREATE INDEX "guest_report_invites_submission_id_index" ON "guest_report_invites" ("submission_id");--> statement-breakpoint
CREATE INDEX "guest_report_invites_user_id_status_index" ON "guest_report_invites" ("user_id","status");--> statement-breakpoint
CREATE INDEX "guest_report_invites_email_idx" ON "guest_report_invites" (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "report_submission_answers_submission_id_widget_id_index" ON "report_submission_answers" ("submission_id","widget_id");--> statement-breakpoint
CREATE INDEX "report_submission_assignees_user_id_index" ON "report_submission_assignees" ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "report_submission_one_owner_idx" ON "report_submission_assignees" ("submission_id") WHERE "is_owner";--> statement-breakpoint
CREATE INDEX "report_submission_attachments_submission_id_index" ON "report_submission_attachments" ("submission_id");--> statement-breakpoint
CREATE INDEX "report_submission_notes_submission_id_archived_created_at_index" ON "report_submission_notes" ("submission_id","archived","created_at");--> statement-breakpoint
CREATE INDEX "report_submission_tags_tag_id_index" ON "report_submission_tags" ("tag_id");--> statement-breakpoint
CREATE UNIQUE INDEX "report_submissions_report_id_index" ON "report_submissions" ("report_id");--> statement-breakpoint
CREATE INDEX "report_submissions_organisation_id_archived_created_at_index" ON "report_submissions" ("organisation_id","archived","created_at");--> statement-breakpoint
CREATE INDEX "report_submissions_organisation_id_archived_updated_at_index" ON "report_submissions" ("organisation_id","archived","updated_at");--> statement-breakpoint
CREATE INDEX "report_submissions_organisation_id_status_index" ON "report_submissions" ("organisation_id","status");--> statement-breakpoint
CREATE INDEX "report_submissions_form_id_created_at_index" ON "report_submissions" ("form_id","created_at");--> statement-breakpoint
CREATE INDEX "reporter_sessions_submission_id_index" ON "reporter_sessions" ("submission_id");--> statement-breakpoint
CREATE INDEX "reporter_sessions_expires_at_index" ON "reporter_sessions" ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_organisation_name_idx" ON "tags" ("organisation_id",lower("name"));--> statement-breakpoint
CREATE INDEX "tags_organisation_id_archived_index" ON "tags" ("organisation_id","archived");--> statement-breakpoint
CREATE INDEX "report_conversation_messages_conversation_id_created_at_index" ON "report_conversation_messages" ("conversation_id","created_at");--> statement-breakpoint
CREATE INDEX "report_conversation_messages_organisation_id_from_state_index" ON "report_conversation_messages" ("organisation_id","from","state");--> statement-breakpoint
CREATE UNIQUE INDEX "report_conversations_submission_id_index" ON "report_conversations" ("submission_id");--> statement-breakpoint
CREATE INDEX "report_conversations_organisation_id_last_message_at_index" ON "report_conversations" ("organisation_id","last_message_at");--> statement-breakpoint
CREATE INDEX "user_activities_organisation_id_created_at_index" ON "user_activities" ("organisation_id","created_at");--> statement-breakpoint
CREATE INDEX "user_activities_object_type_object_id_created_at_index" ON "user_activities" ("object_type","object_id","created_at");--> statement-breakpoint
CREATE INDEX "user_activities_parent_id_index" ON "user_activities" ("parent_id");--> statement-breakpoint
ALTER TABLE "blobs" ADD CONSTRAINT "blobs_organisation_id_organisations_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_user_id_users_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "guest_memberships" ADD CONSTRAINT "guest_memberships_user_id_users_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "guest_memberships" ADD CONSTRAINT "guest_memberships_organisation_id_organisations_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "organisations" ADD CONSTRAINT "organisations_logo_blob_id_blobs_id_fkey" FOREIGN KEY ("logo_blob_id") REFERENCES "blobs"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_acting_organisation_id_organisations_id_fkey" FOREIGN KEY ("acting_organisation_id") REFERENCES "organisations"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_id_roles_id_fkey" FOREIGN KEY ("role_id") REFERENCES "roles"("id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_organisation_id_organisations_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_avatar_blob_id_blobs_id_fkey" FOREIGN KEY ("avatar_blob_id") REFERENCES "blobs"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "onboard_invites" ADD CONSTRAINT "onboard_invites_organisation_id_organisations_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "onboard_invites" ADD CONSTRAINT "onboard_invites_role_id_roles_id_fkey" FOREIGN KEY ("role_id") REFERENCES "roles"("id");--> statement-breakpoint
ALTER TABLE "onboard_invites" ADD CONSTRAINT "onboard_invites_invited_by_user_id_users_id_fkey" FOREIGN KEY ("invited_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "organisation_email_subscribers" ADD CONSTRAINT "organisation_email_subscribers_MAMpjBITGvHQ_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "prospects" ADD CONSTRAINT "prospects_invite_id_onboard_invites_id_fkey" FOREIGN KEY ("invite_id") REFERENCES "onboard_invites"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "report_form_builds" ADD CONSTRAINT "report_form_builds_form_id_report_forms_id_fkey" FOREIGN KEY ("form_id") REFERENCES "report_forms"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_form_builds" ADD CONSTRAINT "report_form_builds_template_id_report_form_templates_id_fkey" FOREIGN KEY ("template_id") REFERENCES "report_form_templates"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_form_builds" ADD CONSTRAINT "report_form_builds_author_user_id_users_id_fkey" FOREIGN KEY ("author_user_id") REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "report_form_notes" ADD CONSTRAINT "report_form_notes_form_id_report_forms_id_fkey" FOREIGN KEY ("form_id") REFERENCES "report_forms"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_form_notes" ADD CONSTRAINT "report_form_notes_organisation_id_organisations_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_form_notes" ADD CONSTRAINT "report_form_notes_author_user_id_users_id_fkey" FOREIGN KEY ("author_user_id") REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "report_form_templates" ADD CONSTRAINT "report_form_templates_kuvBEA3zbe3u_fkey" FOREIGN KEY ("current_build_id") REFERENCES "report_form_builds"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "report_form_widgets" ADD CONSTRAINT "report_form_widgets_build_id_report_form_builds_id_fkey" FOREIGN KEY ("build_id") REFERENCES "report_form_builds"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_forms" ADD CONSTRAINT "report_forms_organisation_id_organisations_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_forms" ADD CONSTRAINT "report_forms_current_build_id_report_form_builds_id_fkey" FOREIGN KEY ("current_build_id") REFERENCES "report_form_builds"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "report_forms" ADD CONSTRAINT "report_forms_deployed_build_id_report_form_builds_id_fkey" FOREIGN KEY ("deployed_build_id") REFERENCES "report_form_builds"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "guest_report_invites" ADD CONSTRAINT "guest_report_invites_submission_id_report_submissions_id_fkey" FOREIGN KEY ("submission_id") REFERENCES "report_submissions"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "guest_report_invites" ADD CONSTRAINT "guest_report_invites_organisation_id_organisations_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "guest_report_invites" ADD CONSTRAINT "guest_report_invites_user_id_users_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "guest_report_invites" ADD CONSTRAINT "guest_report_invites_invited_by_user_id_users_id_fkey" FOREIGN KEY ("invited_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "report_submission_answers" ADD CONSTRAINT "report_submission_answers_adPpTfSq7Xib_fkey" FOREIGN KEY ("submission_id") REFERENCES "report_submissions"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_submission_assignees" ADD CONSTRAINT "report_submission_assignees_VmMn1Ebz8H58_fkey" FOREIGN KEY ("submission_id") REFERENCES "report_submissions"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_submission_assignees" ADD CONSTRAINT "report_submission_assignees_user_id_users_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_submission_attachments" ADD CONSTRAINT "report_submission_attachments_reOSY1UNSXMk_fkey" FOREIGN KEY ("submission_id") REFERENCES "report_submissions"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_submission_attachments" ADD CONSTRAINT "report_submission_attachments_blob_id_blobs_id_fkey" FOREIGN KEY ("blob_id") REFERENCES "blobs"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_submission_notes" ADD CONSTRAINT "report_submission_notes_7NHCQKmm7w8Z_fkey" FOREIGN KEY ("submission_id") REFERENCES "report_submissions"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_submission_notes" ADD CONSTRAINT "report_submission_notes_organisation_id_organisations_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_submission_notes" ADD CONSTRAINT "report_submission_notes_author_user_id_users_id_fkey" FOREIGN KEY ("author_user_id") REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "report_submission_tags" ADD CONSTRAINT "report_submission_tags_submission_id_report_submissions_id_fkey" FOREIGN KEY ("submission_id") REFERENCES "report_submissions"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_submission_tags" ADD CONSTRAINT "report_submission_tags_tag_id_tags_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_submissions" ADD CONSTRAINT "report_submissions_organisation_id_organisations_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_submissions" ADD CONSTRAINT "report_submissions_form_id_report_forms_id_fkey" FOREIGN KEY ("form_id") REFERENCES "report_forms"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_submissions" ADD CONSTRAINT "report_submissions_build_id_report_form_builds_id_fkey" FOREIGN KEY ("build_id") REFERENCES "report_form_builds"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "report_submissions" ADD CONSTRAINT "report_submissions_deleted_by_user_id_users_id_fkey" FOREIGN KEY ("deleted_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "reporter_sessions" ADD CONSTRAINT "reporter_sessions_organisation_id_organisations_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "reporter_sessions" ADD CONSTRAINT "reporter_sessions_submission_id_report_submissions_id_fkey" FOREIGN KEY ("submission_id") REFERENCES "report_submissions"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_organisation_id_organisations_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_conversation_messages" ADD CONSTRAINT "report_conversation_messages_DFJco6xpRpuZ_fkey" FOREIGN KEY ("conversation_id") REFERENCES "report_conversations"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_conversation_messages" ADD CONSTRAINT "report_conversation_messages_8ALstvQKUraA_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_conversation_messages" ADD CONSTRAINT "report_conversation_messages_from_user_id_users_id_fkey" FOREIGN KEY ("from_user_id") REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "report_conversation_messages" ADD CONSTRAINT "report_conversation_messages_image_blob_id_blobs_id_fkey" FOREIGN KEY ("image_blob_id") REFERENCES "blobs"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "report_conversations" ADD CONSTRAINT "report_conversations_submission_id_report_submissions_id_fkey" FOREIGN KEY ("submission_id") REFERENCES "report_submissions"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "report_conversations" ADD CONSTRAINT "report_conversations_organisation_id_organisations_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "resource_documents" ADD CONSTRAINT "resource_documents_blob_id_blobs_id_fkey" FOREIGN KEY ("blob_id") REFERENCES "blobs"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "user_activities" ADD CONSTRAINT "user_activities_organisation_id_organisations_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "user_activities" ADD CONSTRAINT "user_activities_user_id_users_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL;