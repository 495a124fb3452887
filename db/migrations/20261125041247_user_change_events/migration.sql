-- Every change to a user row tells every instance to drop its cached copies of that user (the viewer's
-- row, their sessions), whoever made it: Lantern, the CLI or an operator's SQL. The event has the shape
-- api/lib/invalidation.ts sends on the same channel and goes out at commit, never for a rollback.
CREATE OR REPLACE FUNCTION lantern_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('lantern_events', json_build_object(
    'topic', 'cache.invalidate',
    'payload', json_build_object('id', gen_random_uuid()::text, 'userIds', json_build_array(OLD.id::text))
  )::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER users_changed_invalidate AFTER UPDATE ON users FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION lantern_user_changed();--> statement-breakpoint
CREATE TRIGGER users_deleted_invalidate AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION lantern_user_changed();
