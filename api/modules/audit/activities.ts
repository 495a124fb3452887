import { and, count, desc, eq, gte, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import * as v from "valibot";
import { organisations, reportSubmissions, roles, userActivities, users } from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { UserError, notFound } from "../../lib/errors.ts";
import { isUuid, requireUuid } from "../../lib/ids.ts";
import { IdText, parseWith } from "../../lib/validation.ts";
import { TEXT_LIMITS } from "../../shared/limits.ts";
import { AUDIT_OBJECT_TYPES, type AuditObjectType } from "../../shared/audit-object-types.ts";
import type { RoleName } from "../../shared/enums.ts";
import { isSuperAdmin, organisationScope, requirePermission } from "../access/policy.ts";
import { endOfDay, ORGANISATION_NOT_FOUND, parseDateFilter, startOfDay, type DateFilter } from "../reports/list.ts";
import { REPORT_NOT_FOUND, reportFor, visibleReports } from "../reports/policy.ts";
import { USER_NOT_FOUND } from "../users/rules.ts";
import { pageLimit, pageOffset } from "../users/service.ts";
import { utcDay } from "../../lib/day-grain.ts";
import { DELETED_USER_KEY, visibleMetadata } from "./metadata.ts";

/**
 * Reading the audit log (spec: userActivities, userActivity). Only holders of UserActivityList
 * read it, each confined to their own organisation (super admins to the one they name, or all).
 * Entries about a report follow the report access policy (docs/decisions/009-report-access.md):
 * an entry about a report the reader may not see is not there, so drafts a reporter abandoned
 * and hard-deleted reports leave no trace in the console.
 */

export const AUDIT_LOG_NOT_FOUND = "Audit log not found";

export interface ActivityView {
  id: string;
  action: string;
  createdAt: Date;
  /** Stored with its day only (day-grain.ts); createdAt is then that UTC day's start. */
  dayOnly: boolean;
  objectId: string | null;
  objectType: AuditObjectType;
  isGrouped: boolean;
  parentId: string | null;
  metadata: Record<string, unknown>;
  /** Null when a reporter or the system acted (or the account is gone): nothing about a reporter is ever shown. */
  user: { firstName: string; lastName: string; role: RoleName } | null;
}

export interface ActivityListArgs {
  organisationID?: string | null;
  parentID?: string | null;
  objectID?: string | null;
  objectType?: AuditObjectType | null;
  /** Only this person's entries. */
  userID?: string | null;
  /** Inclusive UTC calendar days of createdAt, like the dashboard's filter: none in the future. */
  dateFilter?: DateFilter | null;
  limit?: number | null;
  offset?: number | null;
}

const FiltersSchema = v.object({
  organisationID: v.nullish(IdText),
  parentID: v.nullish(IdText),
  objectID: v.nullish(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.id.max, "objectID must be at most 100 characters"))),
  objectType: v.nullish(v.picklist(AUDIT_OBJECT_TYPES, "Invalid object type")),
  userID: v.nullish(IdText),
});

/** The organisation the reader works in; another's id answers exactly like one that does not exist. */
async function activityScope(ctx: Ctx, actor: StaffActor, organisationID: string | null | undefined): Promise<string | null> {
  const requested = organisationID ? requireUuid(organisationID, ORGANISATION_NOT_FOUND) : null;
  const scope = organisationScope(actor, requested, ORGANISATION_NOT_FOUND);
  if (isSuperAdmin(actor) && scope) {
    const [row] = await ctx.db.select({ id: organisations.id }).from(organisations).where(eq(organisations.id, scope)).limit(1);
    if (!row) throw notFound(ORGANISATION_NOT_FOUND);
  }
  return scope;
}

/**
 * Entries the reader may see within the scope: the organisation's, and of those about a report
 * only the ones whose report the reader may see. An uncorrelated subquery, so it runs once per
 * query rather than once per entry.
 */
function readableEntries(actor: StaffActor, organisationId: string | null): SQL {
  const aboutVisibleReport = or(
    ne(userActivities.objectType, "ReportSubmission"),
    // Entries about many reports at once (bulk exports) name none.
    isNull(userActivities.objectId),
    sql`${userActivities.objectId} in (select ${reportSubmissions.id}::text from ${reportSubmissions} where ${visibleReports(actor, organisationId)})`,
  )!;
  return organisationId ? and(eq(userActivities.organisationId, organisationId), aboutVisibleReport)! : aboutVisibleReport;
}

const activityColumns = {
  id: userActivities.id,
  action: userActivities.action,
  createdAt: userActivities.createdAt,
  objectId: userActivities.objectId,
  objectType: userActivities.objectType,
  isGrouped: userActivities.isGrouped,
  parentId: userActivities.parentId,
  metadata: userActivities.metadata,
  writtenBy: userActivities.userId,
  userId: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  role: roles.name,
};

type ActivityRow = Awaited<ReturnType<typeof selectActivities>>[number];

function toView(row: ActivityRow): ActivityView {
  // A deleted person's entries lose their author too, but keep their time: the marker tells them apart.
  const dayOnly = row.writtenBy === null && row.metadata[DELETED_USER_KEY] !== true;
  return {
    id: row.id,
    action: row.action,
    createdAt: dayOnly ? utcDay(row.createdAt) : row.createdAt,
    dayOnly,
    objectId: row.objectId,
    objectType: row.objectType,
    isGrouped: row.isGrouped,
    parentId: row.parentId,
    metadata: visibleMetadata(row.action, row.metadata, row.objectType),
    user: row.userId && row.role ? { firstName: row.firstName ?? "", lastName: row.lastName ?? "", role: row.role } : null,
  };
}

function selectActivities(ctx: Ctx, where: SQL | undefined) {
  return ctx.db
    .select(activityColumns)
    .from(userActivities)
    .leftJoin(users, eq(users.id, userActivities.userId))
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(where);
}

/** One entry the reader may see, or null. */
async function readableActivity(ctx: Ctx, actor: StaffActor, id: string, organisationId: string | null): Promise<ActivityView | null> {
  const [row] = await selectActivities(ctx, and(eq(userActivities.id, id), readableEntries(actor, organisationId))).limit(1);
  return row ? toView(row) : null;
}

/** The reader's own organisation, or every organisation for a super admin. */
const homeScope = (actor: StaffActor) => organisationScope(actor, null, AUDIT_LOG_NOT_FOUND);

/**
 * The person a list is narrowed to: someone of the organisation in scope, or anyone who has acted
 * in it (a super admin, a guest on its reports). Anyone else answers "not found", so the filter
 * cannot tell whether another organisation's user exists.
 */
async function filterUser(ctx: Ctx, userID: string, organisationId: string | null): Promise<string> {
  const id = requireUuid(userID, USER_NOT_FOUND);
  const inScope = organisationId
    ? or(
        eq(users.organisationId, organisationId),
        sql`exists (select 1 from ${userActivities} where ${userActivities.userId} = ${users.id} and ${userActivities.organisationId} = ${organisationId})`,
      )
    : undefined;
  const [row] = await ctx.db.select({ id: users.id }).from(users).where(and(eq(users.id, id), inScope)).limit(1);
  if (!row) throw notFound(USER_NOT_FOUND);
  return row.id;
}

/**
 * A page of entries, newest first. Asking for one report's entries (objectType ReportSubmission
 * with its id) first checks that the reader may see that report, and refuses otherwise.
 * Without parentID only top-level entries are listed; the children of a grouped entry are read
 * through its id.
 */
export async function listActivities(ctx: Ctx, args: ActivityListArgs): Promise<{ total: number; list: ActivityView[] }> {
  const actor = requirePermission(ctx, "UserActivityList");
  const filters = parseWith(FiltersSchema, args);
  const organisationId = await activityScope(ctx, actor, filters.organisationID);
  const conditions: SQL[] = [];

  if (filters.objectType === "ReportSubmission" && filters.objectID) {
    const { submission } = await reportFor(ctx, ctx.db, filters.objectID, "UserActivityList");
    // A super admin working inside one organisation reaches only that organisation's reports.
    if (organisationId && submission.organisationId !== organisationId) throw new UserError("NOT_FOUND", REPORT_NOT_FOUND);
    conditions.push(eq(userActivities.organisationId, submission.organisationId), eq(userActivities.objectId, submission.id));
  } else {
    conditions.push(readableEntries(actor, organisationId));
    if (filters.objectID) conditions.push(eq(userActivities.objectId, filters.objectID));
  }
  if (filters.objectType) conditions.push(eq(userActivities.objectType, filters.objectType));
  if (filters.userID) conditions.push(eq(userActivities.userId, await filterUser(ctx, filters.userID, organisationId)));
  const range = parseDateFilter(args.dateFilter);
  if (range.from) conditions.push(gte(userActivities.createdAt, startOfDay(range.from)));
  if (range.to) conditions.push(lt(userActivities.createdAt, endOfDay(range.to)));

  if (filters.parentID) {
    const parentId = requireUuid(filters.parentID, AUDIT_LOG_NOT_FOUND);
    if (!(await readableActivity(ctx, actor, parentId, organisationId))) throw notFound(AUDIT_LOG_NOT_FOUND);
    conditions.push(eq(userActivities.parentId, parentId));
  } else {
    conditions.push(isNull(userActivities.parentId));
  }

  const where = and(...conditions);
  const [[total], rows] = await Promise.all([
    ctx.db.select({ n: count() }).from(userActivities).where(where),
    // The id breaks ties (entries of one transaction share its timestamp), so pages never overlap.
    selectActivities(ctx, where).orderBy(desc(userActivities.createdAt), desc(userActivities.id)).limit(pageLimit(args.limit)).offset(pageOffset(args.offset)),
  ]);
  return { total: total?.n ?? 0, list: rows.map(toView) };
}

/** One entry by id; anything the reader may not see is "not found". */
export async function getActivity(ctx: Ctx, id: unknown): Promise<ActivityView> {
  const actor = requirePermission(ctx, "UserActivityList");
  const view = isUuid(id) ? await readableActivity(ctx, actor, id.toLowerCase(), homeScope(actor)) : null;
  if (!view) throw notFound(AUDIT_LOG_NOT_FOUND);
  return view;
}

/** The parent of a grouped entry's child, if the reader may see it. */
export async function parentActivity(ctx: Ctx, parentId: string | null): Promise<ActivityView | null> {
  if (!parentId || ctx.actor.kind !== "staff") return null;
  return readableActivity(ctx, ctx.actor, parentId, homeScope(ctx.actor));
}
