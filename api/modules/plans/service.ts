import { and, asc, count, eq, ilike, type SQL } from "drizzle-orm";
import * as v from "valibot";
import { productPlans } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import type { Database } from "../../../db/client.ts";
import { badInput, notFound } from "../../lib/errors.ts";
import { isUuid, requireUuid } from "../../lib/ids.ts";
import { containsPattern, parseWith, searchTextOf } from "../../lib/validation.ts";
import type { ListFilter } from "../../shared/enums.ts";
import { TEXT_LIMITS } from "../../shared/limits.ts";
import { mutate, requirePermission } from "../access/policy.ts";
import { recordActivity } from "../audit/service.ts";
import { pageLimit, pageOffset } from "../users/service.ts";

/** Product plans (spec: ProductPlan permissions; decision 037): what a new organisation signs up for. */

export const PLAN_NOT_FOUND = "Product plan is not found";
export const MAX_PLAN_SEATS = 100_000;
/** In dollars; a plan dearer than this is a typo. */
export const MAX_PLAN_PRICE = 1_000_000;

export type ProductPlanView = typeof productPlans.$inferSelect;

const PlanInput = v.object({
  name: v.pipe(v.string("Required"), v.trim(), v.nonEmpty("Required"), v.maxLength(TEXT_LIMITS.short.max, TEXT_LIMITS.short.tooLong)),
  seats: v.pipe(v.number("Seats must be a number"), v.integer("Seats must be a whole number"), v.minValue(1, "Seats must be at least 1"), v.maxValue(MAX_PLAN_SEATS, `Seats can be at most ${MAX_PLAN_SEATS}`)),
  price: v.pipe(v.number("Price must be a number"), v.minValue(0, "Price cannot be negative"), v.maxValue(MAX_PLAN_PRICE, `Price can be at most ${MAX_PLAN_PRICE}`)),
});

const toColumns = (input: v.InferOutput<typeof PlanInput>) => ({ name: input.name, seats: input.seats, priceCents: Math.round(input.price * 100) });

/** A plan as the sign-up page may see it: any live plan, by id, to anyone (a price list is public). */
export async function publicPlan(ctx: Ctx, id: string): Promise<ProductPlanView | null> {
  if (!isUuid(id)) return null;
  const [plan] = await ctx.db.select().from(productPlans).where(eq(productPlans.id, id)).limit(1);
  if (!plan) return null;
  if (plan.archived && !(ctx.actor.kind === "staff" && ctx.actor.permissions.has("ProductPlanRead"))) return null;
  return plan;
}

export async function listPlans(ctx: Ctx, args: { search?: string | null; filter?: ListFilter | null; limit?: number | null; offset?: number | null }) {
  requirePermission(ctx, "ProductPlanList");
  const filters: SQL[] = [];
  const filter = args.filter ?? "Active";
  if (filter !== "All") filters.push(eq(productPlans.archived, filter === "Archived"));
  const search = searchTextOf(args.search);
  if (search) filters.push(ilike(productPlans.name, containsPattern(search)));
  const where = filters.length ? and(...filters) : undefined;
  const [total] = await ctx.db.select({ n: count() }).from(productPlans).where(where);
  const list = await ctx.db.select().from(productPlans).where(where).orderBy(asc(productPlans.priceCents), asc(productPlans.name), asc(productPlans.id)).limit(pageLimit(args.limit)).offset(pageOffset(args.offset));
  return { total: total?.n ?? 0, list };
}

export async function createPlan(ctx: Ctx, rawInput: unknown): Promise<ProductPlanView> {
  return mutate(ctx, "ProductPlanCreate", async (tx, actor) => {
    const [plan] = await tx.insert(productPlans).values(toColumns(parseWith(PlanInput, rawInput))).returning();
    // Plans belong to no organisation; the super admin's own actions are where the audit log files them.
    await recordActivity(tx, actor, { organisationId: null, objectType: "Self", objectId: plan!.id, objectCode: plan!.name, action: "ProductPlanCreate", metadata: { name: plan!.name } });
    return plan!;
  });
}

export async function updatePlan(ctx: Ctx, id: string, rawInput: unknown): Promise<ProductPlanView> {
  return mutate(ctx, "ProductPlanUpdate", async (tx, actor) => {
    const planId = requireUuid(id, PLAN_NOT_FOUND);
    // The plan is found, and locked, before the input is judged (decision 065).
    const [found] = await tx.select({ id: productPlans.id }).from(productPlans).where(eq(productPlans.id, planId)).for("update");
    if (!found) throw notFound(PLAN_NOT_FOUND);
    const [plan] = await tx.update(productPlans).set(toColumns(parseWith(PlanInput, rawInput))).where(eq(productPlans.id, planId)).returning();
    if (!plan) throw notFound(PLAN_NOT_FOUND);
    await recordActivity(tx, actor, { organisationId: null, objectType: "Self", objectId: plan.id, objectCode: plan.name, action: "ProductPlanUpdate", metadata: { name: plan.name } });
    return plan;
  });
}

export async function setPlanArchived(ctx: Ctx, id: string, archived: boolean): Promise<ProductPlanView> {
  return mutate(ctx, archived ? "ProductPlanArchive" : "ProductPlanUnarchive", async (tx, actor) => {
    const planId = requireUuid(id, PLAN_NOT_FOUND);
    const [plan] = await tx.update(productPlans).set({ archived, archivedAt: archived ? new Date() : null }).where(eq(productPlans.id, planId)).returning();
    if (!plan) throw notFound(PLAN_NOT_FOUND);
    await recordActivity(tx, actor, { organisationId: null, objectType: "Self", objectId: plan.id, objectCode: plan.name, action: archived ? "ProductPlanArchive" : "ProductPlanUnarchive", metadata: { name: plan.name, archived } });
    return plan;
  });
}

/** A live plan by id for sign-up, or null. */
export async function publicPlanRow(db: Database, id: string): Promise<ProductPlanView | null> {
  if (!isUuid(id)) throw badInput(PLAN_NOT_FOUND, [{ field: "productPlanID", message: PLAN_NOT_FOUND }]);
  const [plan] = await db.select().from(productPlans).where(and(eq(productPlans.id, id), eq(productPlans.archived, false))).limit(1);
  if (!plan) throw badInput(PLAN_NOT_FOUND, [{ field: "productPlanID", message: PLAN_NOT_FOUND }]);
  return plan;
}
