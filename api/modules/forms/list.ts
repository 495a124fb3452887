import { and, count, desc, eq, ilike, type SQL } from "drizzle-orm";
import { reportForms } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { requireUuid } from "../../lib/ids.ts";
import { containsPattern, searchTextOf } from "../../lib/validation.ts";
import type { ListFilter } from "../../shared/enums.ts";
import { organisationScope, requirePermission } from "../access/policy.ts";
import { ORGANISATION_NOT_FOUND } from "../organisations/service.ts";
import { pageLimit, pageOffset } from "../users/service.ts";
import { formViews, reachableForm, type ReportFormView } from "./views.ts";

export interface FormListArgs {
  organisationID?: string | null;
  search?: string | null;
  filter?: ListFilter | null;
  limit?: number | null;
  offset?: number | null;
}

/**
 * The organisation's own report forms (Custom only: the Enquiry form is configured with the
 * organisation), newest first. A super admin may name an organisation or see every one's.
 */
export async function listForms(ctx: Ctx, args: FormListArgs): Promise<{ total: number; list: ReportFormView[] }> {
  const actor = requirePermission(ctx, "ReportFormList");
  const requested = args.organisationID ? requireUuid(args.organisationID, ORGANISATION_NOT_FOUND) : null;
  const organisationId = organisationScope(actor, requested, ORGANISATION_NOT_FOUND);
  const filters: SQL[] = [eq(reportForms.type, "Custom")];
  if (organisationId) filters.push(eq(reportForms.organisationId, organisationId));
  const filter = args.filter ?? "Active";
  if (filter !== "All") filters.push(eq(reportForms.archived, filter === "Archived"));
  const search = searchTextOf(args.search);
  if (search) filters.push(ilike(reportForms.name, containsPattern(search)));
  const where = and(...filters);
  const [total] = await ctx.db.select({ n: count() }).from(reportForms).where(where);
  const rows = await ctx.db
    .select()
    .from(reportForms)
    .where(where)
    .orderBy(desc(reportForms.createdAt), desc(reportForms.id))
    .limit(pageLimit(args.limit))
    .offset(pageOffset(args.offset));
  return { total: total?.n ?? 0, list: await formViews(ctx, rows) };
}

export async function getForm(ctx: Ctx, rawId: unknown): Promise<ReportFormView> {
  const actor = requirePermission(ctx, "ReportFormRead");
  const form = await reachableForm(ctx.db, actor, rawId);
  return (await formViews(ctx, [form]))[0]!;
}
