-- A start's cap check as part of its one statement (decision 028): the organisation's draft lock
-- (the same key the code took before, so instances of either version exclude each other), then a
-- count under it. A volatile PL/pgSQL function takes a new snapshot for each statement in it, so the
-- count sees every Draft committed by whoever held the lock before; the lock is held until the
-- calling statement's transaction ends.
CREATE FUNCTION "drafts_under_lock"("organisation" uuid, "form" uuid)
  RETURNS TABLE ("organisation_drafts" bigint, "form_drafts" bigint) LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('drafts:' || "organisation"::text, 0));
  RETURN QUERY SELECT count(*), count(*) FILTER (WHERE "report_submissions"."form_id" = "form")
    FROM "report_submissions" WHERE "report_submissions"."organisation_id" = "organisation" AND "report_submissions"."status" = 'Draft';
END
$$;
