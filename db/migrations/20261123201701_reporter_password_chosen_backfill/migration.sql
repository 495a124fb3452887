-- A reporter who changed their password before password_chosen existed typed it themselves: it is
-- verified as typed, not normalised like a generated one. The audit log says whose was changed.
UPDATE "report_submissions" SET "password_chosen" = true
WHERE "id"::text IN (
  SELECT "object_id" FROM "user_activities"
  WHERE "object_type" = 'ReportSubmission' AND "action" = 'ChangeReporterPassword'
);
