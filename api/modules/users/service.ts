import { and, asc, count, desc, eq, exists, ilike, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { guestMemberships, reportSubmissionAssignees, reportSubmissions, roles, users } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { requireUuid } from "../../lib/ids.ts";
import { containsPattern, searchTextOf } from "../../lib/validation.ts";
import type { RoleName } from "../../shared/enums.ts";
import { canReachOrganisation, organisationScope, requirePermission } from "../access/policy.ts";
import { USER_NOT_FOUND } from "./rules.ts";

export { USER_NOT_FOUND };
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
const REPORT_NOT_FOUND = "Report Submission is not found";

/** The spec: an invalid pagination limit falls back to 20. */
export function pageLimit(limit: number | null | undefined): number {
  return limit && Number.isInteger(limit) && limit > 0 && limit <= MAX_PAGE_SIZE ? limit : DEFAULT_PAGE_SIZE;
}

export function pageOffset(offset: number | null | undefined): number {
  return offset && Number.isInteger(offset) && offset > 0 ? offset : 0;
}

/** A user the actor may read: themselves, anyone of their organisation, or anyone for a super admin. */
export async function getUser(ctx: Ctx, rawId: string) {
  const actor = requirePermission(ctx, "UserRead");
  const id = requireUuid(rawId, USER_NOT_FOUND);
  const [row] = await ctx.db.select({ id: users.id, organisationId: users.organisationId }).from(users).where(eq(users.id, id)).limit(1);
  if (!row || (row.id !== actor.userId && !canReachOrganisation(actor, row.organisationId))) throw new UserError("NOT_FOUND", USER_NOT_FOUND);
  return row;
}

export const USER_SORT_KEYS = ["alphabetical"] as const;
export type UserSortKey = (typeof USER_SORT_KEYS)[number];

/** The arguments of spec §7 `users`; every one optional. */
export interface UserListArgs {
  organisationID?: string | null;
  roleName?: RoleName | null;
  /** Whether the asking user appears in their own list (default yes). */
  includeSelf?: boolean | null;
  /** Also guests of other organisations admitted to this one (a live guest membership). */
  includeGuestMembers?: boolean | null;
  /** Only the report's team, or with `reportSubmissionUnassigned` only those not on it. */
  reportSubmissionID?: string | null;
  reportSubmissionUnassigned?: boolean | null;
  sortBy?: UserSortKey | null;
  ascending?: boolean | null;
  search?: string | null;
  limit?: number | null;
  offset?: number | null;
}

/** Users of the actor's organisation (a super admin may name one, or list everyone). */
export async function listUsers(ctx: Ctx, args: UserListArgs) {
  const actor = requirePermission(ctx, "UserList");
  const requested = args.organisationID ? requireUuid(args.organisationID, "Organisation is not found") : null;
  const organisationId = organisationScope(actor, requested, "Organisation is not found");
  const filters: SQL[] = [];
  if (organisationId) {
    const own = eq(users.organisationId, organisationId);
    const guests = exists(
      ctx.db
        .select({ one: guestMemberships.userId })
        .from(guestMemberships)
        .where(and(eq(guestMemberships.userId, users.id), eq(guestMemberships.organisationId, organisationId), eq(guestMemberships.archived, false))),
    );
    filters.push(args.includeGuestMembers ? or(own, guests)! : own);
  }
  if (args.roleName) filters.push(inArray(users.roleId, ctx.db.select({ id: roles.id }).from(roles).where(eq(roles.name, args.roleName))));
  if (args.includeSelf === false) filters.push(ne(users.id, actor.userId));
  if (args.reportSubmissionID) {
    const reportId = requireUuid(args.reportSubmissionID, REPORT_NOT_FOUND);
    const [report] = await ctx.db.select({ organisationId: reportSubmissions.organisationId }).from(reportSubmissions).where(eq(reportSubmissions.id, reportId)).limit(1);
    if (!report || !canReachOrganisation(actor, report.organisationId)) throw new UserError("NOT_FOUND", REPORT_NOT_FOUND);
    const onTeam = exists(
      ctx.db
        .select({ one: reportSubmissionAssignees.userId })
        .from(reportSubmissionAssignees)
        .where(and(eq(reportSubmissionAssignees.submissionId, reportId), eq(reportSubmissionAssignees.userId, users.id))),
    );
    filters.push(args.reportSubmissionUnassigned ? sql`not ${onTeam}` : onTeam);
  }
  const search = searchTextOf(args.search);
  if (search) {
    const pattern = containsPattern(search);
    filters.push(or(ilike(users.email, pattern), ilike(users.firstName, pattern), ilike(users.lastName, pattern), ilike(users.username, pattern))!);
  }
  const where = filters.length ? and(...filters) : undefined;
  const direction = args.ascending === false ? desc : asc;
  const [total] = await ctx.db.select({ n: count() }).from(users).where(where);
  const ids = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(where)
    .orderBy(direction(users.firstName), direction(users.lastName), direction(users.email), asc(users.id))
    .limit(pageLimit(args.limit))
    .offset(pageOffset(args.offset));
  return { total: total?.n ?? 0, ids: ids.map((row) => row.id) };
}
