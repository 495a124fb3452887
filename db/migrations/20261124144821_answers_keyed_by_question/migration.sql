DROP INDEX "report_submission_answers_submission_id_widget_id_index";--> statement-breakpoint
ALTER TABLE "report_submission_answers" DROP COLUMN "id";--> statement-breakpoint
ALTER TABLE "report_submission_answers" ADD PRIMARY KEY ("submission_id","widget_id");--> statement-breakpoint
DROP INDEX "user_activities_parent_id_index";--> statement-breakpoint
CREATE INDEX "user_activities_parent_id_index" ON "user_activities" ("parent_id") WHERE "parent_id" is not null;