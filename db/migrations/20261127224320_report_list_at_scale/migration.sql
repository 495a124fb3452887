-- Whether an answer holds an element stored before encryption (not empty, without the seal's mark
-- "lx1:"): the predicate of report_submission_answers_in_plain_idx, which holds only such answers,
-- so the start-up's sealing does not read every answer to find none (decision 059).
CREATE FUNCTION "lantern_holds_plain_text"("elements" text[]) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT EXISTS (SELECT 1 FROM unnest("elements") AS "element" WHERE "element" <> '' AND "element" NOT LIKE 'lx1:%')
$$;--> statement-breakpoint
CREATE INDEX "report_submission_answers_in_plain_idx" ON "report_submission_answers" ("submission_id","widget_id") WHERE lantern_holds_plain_text("answer");--> statement-breakpoint
CREATE INDEX "report_submission_attachments_in_plain_idx" ON "report_submission_attachments" ("id") WHERE ("file_name" <> '' and "file_name" not like 'lx1:%');--> statement-breakpoint
CREATE INDEX "report_submission_notes_in_plain_idx" ON "report_submission_notes" ("id") WHERE ("note" <> '' and "note" not like 'lx1:%');--> statement-breakpoint
CREATE INDEX "report_submissions_acknowledge_due_idx" ON "report_submissions" ("completed_at") WHERE "completed" and "deleted_at" is null and "acknowledged_at" is null and "acknowledge_reminder_sent_at" is null;--> statement-breakpoint
CREATE INDEX "report_submissions_feedback_due_idx" ON "report_submissions" (coalesce("acknowledged_at", "completed_at")) WHERE "completed" and "deleted_at" is null and "feedback_at" is null and "feedback_reminder_sent_at" is null;--> statement-breakpoint
CREATE INDEX "report_conversation_messages_in_plain_idx" ON "report_conversation_messages" ("id") WHERE ("message" <> '' and "message" not like 'lx1:%');