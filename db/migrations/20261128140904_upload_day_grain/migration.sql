-- A reporter's uploads keep their day and their order among the report's uploads, not their minute
-- (decision 064): each attachment gets its UTC day's start plus its rank among the report's uploads of
-- that day, and the blob row behind it its day. Only data changes.
UPDATE "report_submission_attachments" AS "attachment"
SET "created_at" = "ranked"."day_grain"
FROM (
  SELECT "id",
    date_trunc('day', "created_at", 'UTC')
      + (row_number() OVER (
          PARTITION BY "submission_id", date_trunc('day', "created_at", 'UTC')
          ORDER BY "created_at", "id"
        ) - 1) * interval '1 microsecond' AS "day_grain"
  FROM "report_submission_attachments"
) AS "ranked"
WHERE "attachment"."id" = "ranked"."id" AND "attachment"."created_at" <> "ranked"."day_grain";
--> statement-breakpoint
UPDATE "blobs"
SET "created_at" = date_trunc('day', "created_at", 'UTC')
WHERE "purpose" = 'Attachment' AND "created_at" <> date_trunc('day', "created_at", 'UTC');
