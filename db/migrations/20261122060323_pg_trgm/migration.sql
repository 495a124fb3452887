-- Trigram indexes make the report list's substring search (ILIKE '%…%') an index lookup
-- (docs/decisions/012-report-search.md). pg_trgm is a trusted extension since PostgreSQL 13, so a
-- database owner without superuser may create it; PGlite loads its bundle in db/pglite-assets.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
