-- A start's draft count without serialising every start of an organisation (decision 028).
-- drafts_under_lock keeps the caps exact by counting under the organisation's draft lock, but holds
-- it through the start's commit, so the starts of one organisation queue behind each other's disk
-- flush. Here, far from the caps, a start takes that lock SHARED (starts do not wait for each other)
-- and near a cap EXCLUSIVE (it waits for every start in flight and then counts exactly). A start on
-- the shared path counts only what is committed, but no more starts can be in flight than the server
-- has connections, each adding one Draft; it goes ahead only while its count is that far below the
-- caps, so the caps hold. The lock is never upgraded within a transaction (two upgrades would
-- deadlock): when the count has crossed that margin between the first look and the shared lock, the
-- function answers NULL counts and the caller starts again, which then takes the exclusive path.
-- Same key as drafts_under_lock, so instances of either version exclude each other during a rolling
-- upgrade; drafts_under_lock stays until no instance of the previous version can run.
CREATE FUNCTION "drafts_for_start"("organisation" uuid, "form" uuid, "organisation_cap" integer, "form_cap" integer)
  RETURNS TABLE ("organisation_drafts" bigint, "form_drafts" bigint) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  "in_flight" integer := current_setting('max_connections')::integer;
  "lock_key" bigint := hashtextextended('drafts:' || "organisation"::text, 0);
  "exclusive" boolean;
  "organisation_count" bigint;
  "form_count" bigint;
BEGIN
  SELECT count(*), count(*) FILTER (WHERE "report_submissions"."form_id" = "form") INTO "organisation_count", "form_count"
    FROM "report_submissions" WHERE "report_submissions"."organisation_id" = "organisation" AND "report_submissions"."status" = 'Draft';
  "exclusive" := "organisation_count" + 2 * "in_flight" >= "organisation_cap" OR "form_count" + 2 * "in_flight" >= "form_cap";
  IF "exclusive" THEN
    PERFORM pg_advisory_xact_lock("lock_key");
  ELSE
    PERFORM pg_advisory_xact_lock_shared("lock_key");
  END IF;
  -- A new snapshot (each statement of a volatile function takes one): everything committed before the lock.
  SELECT count(*), count(*) FILTER (WHERE "report_submissions"."form_id" = "form") INTO "organisation_count", "form_count"
    FROM "report_submissions" WHERE "report_submissions"."organisation_id" = "organisation" AND "report_submissions"."status" = 'Draft';
  IF "exclusive" OR ("organisation_count" + "in_flight" < "organisation_cap" AND "form_count" + "in_flight" < "form_cap") THEN
    RETURN QUERY SELECT "organisation_count", "form_count";
  ELSE
    RETURN QUERY SELECT NULL::bigint, NULL::bigint;
  END IF;
END
$$;
