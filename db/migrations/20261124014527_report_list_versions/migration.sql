CREATE TABLE "report_list_versions" (
	"organisation_id" uuid,
	"shard" smallint,
	"version" bigint NOT NULL,
	CONSTRAINT "report_list_versions_pkey" PRIMARY KEY("organisation_id","shard")
);--> statement-breakpoint
-- The report list's counts are reused while an organisation's version is unchanged (decision 022).
-- Every change that could move a count of its list adds 1, in the writing transaction, to the
-- row of the writing connection's shard: concurrent writers never queue on one row.
CREATE FUNCTION "bump_report_list_version"("organisation" uuid) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "report_list_versions" ("organisation_id", "shard", "version") VALUES ("organisation", pg_backend_pid() % 64, 1)
  ON CONFLICT ("organisation_id", "shard") DO UPDATE SET "version" = "report_list_versions"."version" + 1
$$;--> statement-breakpoint
-- A report: completed, deleted, archived, its status, test flag, completion date, form, ID or reference.
CREATE FUNCTION "report_list_report_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM "bump_report_list_version"(OLD."organisation_id"); END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."organisation_id" <> OLD."organisation_id") THEN PERFORM "bump_report_list_version"(NEW."organisation_id"); END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A report's tags and team (the tag filter, the search by tag name, My Reports, members' lists).
CREATE FUNCTION "report_list_link_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "bump_report_list_version"("organisation_id") FROM "report_submissions"
  WHERE "id" = CASE WHEN TG_OP = 'DELETE' THEN OLD."submission_id" ELSE NEW."submission_id" END AND "completed";
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A tag's or a form's name, or a tag's archiving: the search matches them.
CREATE FUNCTION "report_list_name_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "bump_report_list_version"(NEW."organisation_id");
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Drafts are nobody's to see, so their inserts and page saves move no count.
CREATE TRIGGER "report_list_report_inserted" AFTER INSERT ON "report_submissions" FOR EACH ROW WHEN (NEW."completed")
  EXECUTE FUNCTION "report_list_report_changed"();--> statement-breakpoint
CREATE TRIGGER "report_list_report_deleted" AFTER DELETE ON "report_submissions" FOR EACH ROW WHEN (OLD."completed")
  EXECUTE FUNCTION "report_list_report_changed"();--> statement-breakpoint
CREATE TRIGGER "report_list_report_updated" AFTER UPDATE ON "report_submissions" FOR EACH ROW
  WHEN ((OLD."completed" OR NEW."completed") AND (
    OLD."completed" IS DISTINCT FROM NEW."completed" OR OLD."deleted_at" IS DISTINCT FROM NEW."deleted_at"
    OR OLD."archived" IS DISTINCT FROM NEW."archived" OR OLD."status" IS DISTINCT FROM NEW."status"
    OR OLD."is_test" IS DISTINCT FROM NEW."is_test" OR OLD."completed_at" IS DISTINCT FROM NEW."completed_at"
    OR OLD."form_id" IS DISTINCT FROM NEW."form_id" OR OLD."organisation_id" IS DISTINCT FROM NEW."organisation_id"
    OR OLD."report_id" IS DISTINCT FROM NEW."report_id" OR OLD."internal_reference" IS DISTINCT FROM NEW."internal_reference"))
  EXECUTE FUNCTION "report_list_report_changed"();--> statement-breakpoint
CREATE TRIGGER "report_list_tags_changed" AFTER INSERT OR DELETE ON "report_submission_tags" FOR EACH ROW
  EXECUTE FUNCTION "report_list_link_changed"();--> statement-breakpoint
CREATE TRIGGER "report_list_team_changed" AFTER INSERT OR DELETE ON "report_submission_assignees" FOR EACH ROW
  EXECUTE FUNCTION "report_list_link_changed"();--> statement-breakpoint
CREATE TRIGGER "report_list_tag_changed" AFTER UPDATE ON "tags" FOR EACH ROW
  WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."archived" IS DISTINCT FROM NEW."archived")
  EXECUTE FUNCTION "report_list_name_changed"();--> statement-breakpoint
CREATE TRIGGER "report_list_form_changed" AFTER UPDATE ON "report_forms" FOR EACH ROW
  WHEN (OLD."name" IS DISTINCT FROM NEW."name")
  EXECUTE FUNCTION "report_list_name_changed"();
