import { and, count, eq } from "drizzle-orm";
import { organisationEmailSubscribers, reportForms, users } from "../../../db/schema/index.ts";
import { builder } from "../../graphql/builder.ts";
import { parseWith } from "../../lib/validation.ts";
import { FONT_FAMILIES, INTERVAL_UNITS } from "../../shared/enums.ts";
import { OrganisationSettingsInput } from "./inputs.ts";
import { getOrganisation, updateOrganisation } from "./service.ts";

const FontFamilyEnum = builder.enumType("FontFamily", {
  values: Object.fromEntries(FONT_FAMILIES.map((font) => [font.replace(/\s/g, ""), { value: font }])) as Record<string, { value: (typeof FONT_FAMILIES)[number] }>,
});
const IntervalUnitEnum = builder.enumType("StaleMessageIntervalUnit", { values: INTERVAL_UNITS });

const UsageType = builder.objectRef<{ activeUsers: number; activeForms: number; activeSubscribers: number }>("OrganisationUsage").implement({
  fields: (t) => ({
    activeUsers: t.exposeInt("activeUsers"),
    activeForms: t.exposeInt("activeForms"),
    activeSubscribers: t.exposeInt("activeSubscribers"),
  }),
});

const FileRefType = builder.objectRef<{ fileURL: string }>("FileRef").implement({
  fields: (t) => ({ fileURL: t.exposeString("fileURL") }),
});

export const OrganisationType = builder.drizzleObject("organisations", {
  name: "Organisation",
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    slug: t.exposeString("slug"),
    abn: t.exposeString("abn"),
    loginCode: t.exposeString("loginCode", { nullable: true }),
    logo: t.field({
      type: FileRefType,
      nullable: true,
      select: { columns: { logoBlobId: true, id: true } },
      resolve: (org) => (org.logoBlobId ? { fileURL: `/api/files/organisation-logo/${org.id}` } : null),
    }),
    logoPaddingPixels: t.exposeInt("logoPaddingPixels"),
    logoWidthPixels: t.exposeInt("logoWidthPixels"),
    fontFamily: t.expose("fontFamily", { type: FontFamilyEnum }),
    staleMessageIntervalNumber: t.exposeInt("staleMessageIntervalNumber"),
    staleMessageIntervalUnit: t.expose("staleMessageIntervalUnit", { type: IntervalUnitEnum }),
    openSeatNumber: t.exposeInt("openSeatNumber"),
    generalEnquiryEnabled: t.exposeBoolean("generalEnquiryEnabled"),
    generalEnquiryLabel: t.exposeString("generalEnquiryLabel"),
    generalEnquiryWelcomeMessageContent: t.exposeString("generalEnquiryWelcomeMessageContent"),
    allowGeneralEnquiryChatFileUploads: t.exposeBoolean("allowGeneralEnquiryChatFileUploads"),
    portalWelcomeMessageEnabled: t.exposeBoolean("portalWelcomeMessageEnabled"),
    portalWelcomeMessageContent: t.exposeString("portalWelcomeMessageContent"),
    showLogoOnReportForms: t.exposeBoolean("showLogoOnReportForms"),
    enableEmailAuth2FA: t.exposeBoolean("enableEmailAuth2FA"),
    enableSSO: t.exposeBoolean("enableSSO"),
    enableFormTranslations: t.exposeBoolean("enableFormTranslations"),
    isGuestMember: t.boolean({
      resolve: (org, _args, ctx) => ctx.actor.kind === "staff" && ctx.actor.role === "GUEST_MEMBER" && ctx.actor.organisationId !== org.id,
    }),
    usage: t.field({
      type: UsageType,
      resolve: async (org, _args, ctx) => {
        const [[usersRow], [formsRow], [subscribersRow]] = await Promise.all([
          ctx.db.select({ n: count() }).from(users).where(and(eq(users.organisationId, org.id), eq(users.suspended, false))),
          ctx.db.select({ n: count() }).from(reportForms).where(and(eq(reportForms.organisationId, org.id), eq(reportForms.status, "Active"), eq(reportForms.archived, false))),
          ctx.db.select({ n: count() }).from(organisationEmailSubscribers).where(eq(organisationEmailSubscribers.organisationId, org.id)),
        ]);
        return { activeUsers: usersRow?.n ?? 0, activeForms: formsRow?.n ?? 0, activeSubscribers: subscribersRow?.n ?? 0 };
      },
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    archived: t.exposeBoolean("archived"),
  }),
});

const OrganisationUpdateInput = builder.inputType("OrganisationUpdateInput", {
  fields: (t) => ({
    name: t.string({ required: false }),
    abn: t.string({ required: false }),
    openSeatNumber: t.int({ required: false }),
    enableEmailAuth2FA: t.boolean({ required: false }),
    enableSSO: t.boolean({ required: false }),
    enableFormTranslations: t.boolean({ required: false }),
    staleMessageIntervalNumber: t.int({ required: false }),
    staleMessageIntervalUnit: t.field({ type: IntervalUnitEnum, required: false }),
    generalEnquiryEnabled: t.boolean({ required: false }),
    generalEnquiryLabel: t.string({ required: false }),
    generalEnquiryWelcomeMessageContent: t.string({ required: false }),
    allowGeneralEnquiryChatFileUploads: t.boolean({ required: false }),
    portalWelcomeMessageEnabled: t.boolean({ required: false }),
    portalWelcomeMessageContent: t.string({ required: false }),
    showLogoOnReportForms: t.boolean({ required: false }),
    logoPaddingPixels: t.int({ required: false }),
    logoWidthPixels: t.int({ required: false }),
    fontFamily: t.field({ type: FontFamilyEnum, required: false }),
  }),
});

builder.queryFields((t) => ({
  organisation: t.drizzleField({
    type: OrganisationType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "OrganisationRead" },
    resolve: async (query, _root, args, ctx) => {
      const row = await getOrganisation(ctx, String(args.id));
      return (await ctx.db.query.organisations.findFirst(query({ where: { id: row.id } })))!;
    },
  }),
}));

builder.mutationFields((t) => ({
  organisationUpdate: t.drizzleField({
    type: OrganisationType,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: OrganisationUpdateInput, required: true }) },
    authScopes: { permission: "OrganisationUpdate" },
    resolve: async (query, _root, args, ctx) => {
      const input = parseWith(OrganisationSettingsInput, args.input as Record<string, unknown>);
      const row = await updateOrganisation(ctx, String(args.id), input);
      return (await ctx.db.query.organisations.findFirst(query({ where: { id: row.id } })))!;
    },
  }),
}));
