-- The same test as before (decision 059), in PL/pgSQL. PostgreSQL cannot inline a SQL function whose
-- body holds a subquery, so as the predicate of report_submission_answers_in_plain_idx the SQL version
-- was parsed and planned again by every statement that wrote an answer: about a tenth of the
-- database's CPU in a reporter's page save. A PL/pgSQL function is compiled once per connection.
-- Its answers are unchanged, so the index stays valid.
CREATE OR REPLACE FUNCTION "lantern_holds_plain_text"("elements" text[]) RETURNS boolean LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  "element" text;
BEGIN
  FOREACH "element" IN ARRAY coalesce("elements", '{}') LOOP
    IF "element" <> '' AND "element" NOT LIKE 'lx1:%' THEN
      RETURN true;
    END IF;
  END LOOP;
  RETURN false;
END
$$;
