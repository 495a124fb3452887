import { and, asc, count, eq, ilike, or, type SQL } from "drizzle-orm";
import { users } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { requireUuid } from "../../lib/ids.ts";
import { containsPattern, searchTextOf } from "../../lib/validation.ts";
import { canReachOrganisation, organisationScope, requirePermission } from "../access/policy.ts";

export const USER_NOT_FOUND = "User is not found";
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

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

export interface UserListArgs {
  organisationID?: string | null;
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
  if (organisationId) filters.push(eq(users.organisationId, organisationId));
  const search = searchTextOf(args.search);
  if (search) {
    const pattern = containsPattern(search);
    filters.push(or(ilike(users.email, pattern), ilike(users.firstName, pattern), ilike(users.lastName, pattern))!);
  }
  const where = filters.length ? and(...filters) : undefined;
  const [total] = await ctx.db.select({ n: count() }).from(users).where(where);
  const ids = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(where)
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(pageLimit(args.limit))
    .offset(pageOffset(args.offset));
  return { total: total?.n ?? 0, ids: ids.map((row) => row.id) };
}
