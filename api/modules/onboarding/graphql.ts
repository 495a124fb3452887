import { builder } from "../../graphql/builder.ts";
import { ProductPlanType } from "../plans/graphql.ts";
import type { ProductPlanView } from "../plans/service.ts";
import { inviteForPage, onboardingByCode, onboardingCheck, updateOnboarding, type ProspectView } from "./queries.ts";

// The sign-up calls of spec §7 that are GraphQL; starting and finishing are REST (api/http/onboarding-routes.ts).
// None needs a session: the invite token or the mailed confirmation code is the credential.

const ProspectType = builder.objectRef<ProspectView>("Prospect").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    type: t.exposeString("type"),
    firstName: t.exposeString("firstName"),
    lastName: t.exposeString("lastName"),
    email: t.exposeString("email"),
    organisationName: t.exposeString("organisationName", { nullable: true }),
    organisationABN: t.exposeString("organisationABN", { nullable: true }),
    isCompleted: t.exposeBoolean("isCompleted"),
    isSSO: t.exposeBoolean("isSSO"),
    productPlan: t.field({ type: ProductPlanType, nullable: true, resolve: (prospect) => (prospect.plan ? ({ ...prospect.plan, archived: false } as ProductPlanView) : null) }),
    paymentsEnabled: t.exposeBoolean("paymentsEnabled"),
  }),
});

const OnboardingCheckType = builder.objectRef<{ isCompleted: boolean }>("OnboardingCheck").implement({
  fields: (t) => ({ isCompleted: t.exposeBoolean("isCompleted") }),
});

const OnboardingInviteType = builder.objectRef<Awaited<ReturnType<typeof inviteForPage>>>("OnboardingInvite").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    email: t.exposeString("email"),
    firstName: t.exposeString("firstName"),
    lastName: t.exposeString("lastName"),
    roleName: t.exposeString("roleName"),
    organisationName: t.exposeString("organisationName"),
    enableSSO: t.exposeBoolean("enableSSO"),
  }),
});

const OnboardUpdateInput = builder.inputType("OnboardUpdateInput", {
  fields: (t) => ({
    token: t.string({ required: true }),
    firstName: t.string({ required: true }),
    lastName: t.string({ required: true }),
    organisationName: t.string(),
    organisationABN: t.string(),
    password: t.string(),
  }),
});

builder.queryFields((t) => ({
  onboarding: t.field({
    type: ProspectType,
    description: "The onboarding a mailed confirmation code opens.",
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => onboardingByCode(ctx, args.token),
  }),
  onboardingCheck: t.field({
    type: OnboardingCheckType,
    args: { prospectID: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => onboardingCheck(ctx, String(args.prospectID)),
  }),
  onboardingInviteGet: t.field({
    type: OnboardingInviteType,
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => inviteForPage(ctx, args.token),
  }),
}));

builder.mutationFields((t) => ({
  onboardUpdate: t.field({
    type: ProspectType,
    args: { input: t.arg({ type: OnboardUpdateInput, required: true }) },
    resolve: (_root, args, ctx) => updateOnboarding(ctx, args.input),
  }),
}));
