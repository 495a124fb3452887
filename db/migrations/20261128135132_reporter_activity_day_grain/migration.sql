-- What a reporter (or the system after them) did keeps only its day (decision 064). New entries
-- without a person are written at the start of their UTC day plus one microsecond per earlier such
-- entry about the same object that day; this gives the entries already stored the same form, in the
-- order they were written. A deleted person's entries also lost their author, but carry the
-- deleted_user marker and keep their time. Only data changes: no column is added or dropped.
UPDATE "user_activities" AS "entry"
SET "created_at" = "ranked"."day_grain"
FROM (
  SELECT "id",
    date_trunc('day', "created_at", 'UTC')
      + (row_number() OVER (
          PARTITION BY "organisation_id", "object_type", "object_id", date_trunc('day', "created_at", 'UTC')
          ORDER BY "created_at", "id"
        ) - 1) * interval '1 microsecond' AS "day_grain"
  FROM "user_activities"
  WHERE "user_id" IS NULL AND NOT ("metadata" ? 'deleted_user')
) AS "ranked"
WHERE "entry"."id" = "ranked"."id" AND "entry"."created_at" <> "ranked"."day_grain";
--> statement-breakpoint
-- A report's createdAt is when its reporter began the draft: staff read it, triage needs its day only.
UPDATE "report_submissions"
SET "created_at" = date_trunc('day', "created_at", 'UTC')
WHERE "created_at" <> date_trunc('day', "created_at", 'UTC');
