import { builder } from "../../graphql/builder.ts";
import { ListFilterEnum } from "../tags/graphql.ts";
import { couponView, findCoupon, PAYMENT_PROVIDER, type CouponView } from "./coupons.ts";
import { createPlan, listPlans, publicPlan, setPlanArchived, updatePlan, type ProductPlanView } from "./service.ts";

// Product plans and coupons (decision 037). Reading one live plan and one coupon is public: the
// sign-up page shows them to a stranger. Listing and changing plans takes the ProductPlan permissions.

export const ProductPlanType = builder.objectRef<ProductPlanView>("ProductPlan").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    seats: t.exposeInt("seats"),
    price: t.float({ resolve: (plan) => plan.priceCents / 100 }),
    priceCents: t.exposeInt("priceCents"),
    archived: t.exposeBoolean("archived"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    /** False while this server takes no payments and the plan has a price. */
    available: t.boolean({ resolve: (plan) => plan.priceCents === 0 || PAYMENT_PROVIDER !== null }),
  }),
});

const ProductPlanListType = builder.objectRef<{ total: number; list: ProductPlanView[] }>("ProductPlanList").implement({
  fields: (t) => ({ total: t.exposeInt("total"), list: t.expose("list", { type: [ProductPlanType] }) }),
});

const CouponType = builder.objectRef<CouponView>("Coupon").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    amountOffDollars: t.exposeInt("amountOffDollars", { nullable: true }),
    amountOffCents: t.exposeInt("amountOffCents", { nullable: true }),
    percentOff: t.exposeInt("percentOff", { nullable: true }),
  }),
});

const ProductPlanInput = builder.inputType("ProductPlanInput", {
  fields: (t) => ({ name: t.string({ required: true }), seats: t.int({ required: true }), price: t.float({ required: true }) }),
});

builder.queryFields((t) => ({
  productPlans: t.field({
    type: ProductPlanListType,
    args: { search: t.arg.string(), filter: t.arg({ type: ListFilterEnum }), limit: t.arg.int(), offset: t.arg.int() },
    authScopes: { permission: "ProductPlanList" },
    resolve: (_root, args, ctx) => listPlans(ctx, args),
  }),
  productPlanGet: t.field({
    type: ProductPlanType,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => publicPlan(ctx, String(args.id)),
  }),
  couponGet: t.field({
    type: CouponType,
    nullable: true,
    args: { code: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const coupon = await findCoupon(ctx.db, args.code);
      return coupon ? couponView(coupon) : null;
    },
  }),
}));

builder.mutationFields((t) => ({
  productPlanCreate: t.field({
    type: ProductPlanType,
    args: { input: t.arg({ type: ProductPlanInput, required: true }) },
    authScopes: { permission: "ProductPlanCreate" },
    resolve: (_root, args, ctx) => createPlan(ctx, args.input),
  }),
  productPlanUpdate: t.field({
    type: ProductPlanType,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: ProductPlanInput, required: true }) },
    authScopes: { permission: "ProductPlanUpdate" },
    resolve: (_root, args, ctx) => updatePlan(ctx, String(args.id), args.input),
  }),
  productPlanArchive: t.field({
    type: ProductPlanType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ProductPlanArchive" },
    resolve: (_root, args, ctx) => setPlanArchived(ctx, String(args.id), true),
  }),
  productPlanUnarchive: t.field({
    type: ProductPlanType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ProductPlanUnarchive" },
    resolve: (_root, args, ctx) => setPlanArchived(ctx, String(args.id), false),
  }),
}));
