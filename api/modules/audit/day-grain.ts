import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { utcToday } from "../../lib/day-grain.ts";

/**
 * When an entry without a person happened, as it is stored (docs/decisions/064-reporter-activity-grain.md):
 * the start of the UTC day, plus one microsecond for each entry about the same object already stored
 * at that day's start. The microseconds keep the day's entries in the order they were written, and
 * say nothing of the hour: a database dump holds no finer time than the console shows.
 *
 * Only the day's first second is counted, where nothing but such entries lies (a person's entry in
 * that second only shifts the count); the index on (object_type, object_id, created_at) serves it.
 */
export function dayGrainCreatedAt(organisationId: SQLWrapper | null, objectType: SQLWrapper, objectId: SQLWrapper | null): SQL {
  // Plain equality or IS NULL, never IS NOT DISTINCT FROM: only these can use the index.
  const sameObject = objectId ? sql`earlier.object_id = ${objectId}` : sql`earlier.object_id is null`;
  const sameOrganisation = organisationId ? sql`earlier.organisation_id = ${organisationId}` : sql`earlier.organisation_id is null`;
  return sql`(${utcToday()} + (
    select count(*) from user_activities earlier
    where earlier.object_type = ${objectType} and ${sameObject} and ${sameOrganisation}
      and earlier.created_at >= ${utcToday()} and earlier.created_at < ${utcToday()} + interval '1 second'
  ) * interval '1 microsecond')`;
}
