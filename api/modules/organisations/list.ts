import { and, asc, count, desc, eq, exists, ilike, sql, type SQL } from "drizzle-orm";
import { guestMemberships, organisations } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { containsPattern, searchTextOf } from "../../lib/validation.ts";
import { isSuperAdmin, requireStaff } from "../access/policy.ts";
import type { ListFilter } from "../../shared/enums.ts";
import { pageLimit, pageOffset } from "../users/service.ts";

/** The management list's columns (spec §2 Organisations: Name and Created At). */
export const ORGANISATION_SORT_KEYS = ["Name", "CreatedAt"] as const;
export type OrganisationSortKey = (typeof ORGANISATION_SORT_KEYS)[number];

export interface OrganisationListArgs {
  search?: string | null;
  /** The super admin's Active / Archived / All; every organisation when not given. Guests see active ones only. */
  filter?: ListFilter | null;
  sortBy?: OrganisationSortKey | null;
  sortDir?: "Ascending" | "Descending" | null;
  limit?: number | null;
  offset?: number | null;
}

/**
 * /admin/manage/organisations. A super admin's list is every organisation; anyone else's is the
 * organisations they are a guest of (the Guest Access menu's Organisations, decision 032): the
 * ones whose reports they were admitted to by accepting an invite, while that admission stands.
 */
export async function listOrganisations(ctx: Ctx, args: OrganisationListArgs): Promise<{ total: number; ids: string[] }> {
  const actor = requireStaff(ctx);
  const filters: SQL[] = [];
  if (!isSuperAdmin(actor)) {
    const admitted = ctx.db
      .select({ one: guestMemberships.userId })
      .from(guestMemberships)
      .where(and(eq(guestMemberships.organisationId, organisations.id), eq(guestMemberships.userId, actor.userId), eq(guestMemberships.archived, false)));
    // An archived organisation is closed to guests, as its reporters' host is.
    filters.push(exists(admitted), eq(organisations.archived, false));
  } else if (args.filter && args.filter !== "All") {
    filters.push(eq(organisations.archived, args.filter === "Archived"));
  }
  const search = searchTextOf(args.search);
  if (search) filters.push(ilike(organisations.name, containsPattern(search)));
  const where = filters.length ? and(...filters) : undefined;
  const [total] = await ctx.db.select({ n: count() }).from(organisations).where(where);
  const rows = await ctx.db
    .select({ id: organisations.id })
    .from(organisations)
    .where(where)
    .orderBy(...orderOf(args))
    .limit(pageLimit(args.limit))
    .offset(pageOffset(args.offset));
  return { total: total?.n ?? 0, ids: rows.map((row) => row.id) };
}

/** By name (case folded) ascending unless told otherwise; ties by id, so pages never overlap. */
function orderOf(args: OrganisationListArgs): SQL[] {
  const direction = args.sortDir === "Descending" ? desc : asc;
  if (args.sortBy === "CreatedAt") return [direction(organisations.createdAt), asc(organisations.id)];
  return [direction(sql`lower(${organisations.name})`), desc(organisations.createdAt), asc(organisations.id)];
}
