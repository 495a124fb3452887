import { and, count, eq } from "drizzle-orm";
import { organisationEmailSubscribers, reportForms } from "../../../db/schema/index.ts";
import { builder } from "../../graphql/builder.ts";
import { parseWith } from "../../lib/validation.ts";
import { parseOnceFound } from "../access/policy.ts";
import { FONT_FAMILIES, INTERVAL_UNITS } from "../../shared/enums.ts";
import { organisationSiteUrl } from "../forms/views.ts";
import { createOrganisation, setOrganisationArchived, updateOrganisationLogo } from "./administration.ts";
import { OrganisationCreateInput, OrganisationSettingsInput } from "./inputs.ts";
import { seatUsage } from "./seats.ts";
import { getOrganisation, reachableOrganisation, updateOrganisation } from "./service.ts";

/** Spec §3: 'fontFamily (Helvetica default, Roboto, Montserrat)'. Helvetica is stored as the CSS family it draws with. */
const FONT_ENUM_NAMES: Record<(typeof FONT_FAMILIES)[number], string> = { "Helvetica Neue": "Helvetica", Roboto: "Roboto", Montserrat: "Montserrat" };
export const FontFamilyEnum = builder.enumType("FontFamily", {
  values: Object.fromEntries(FONT_FAMILIES.map((font) => [FONT_ENUM_NAMES[font], { value: font }])) as Record<string, { value: (typeof FONT_FAMILIES)[number] }>,
});
const IntervalUnitEnum = builder.enumType("StaleMessageIntervalUnit", { values: INTERVAL_UNITS });

const UsageType = builder.objectRef<{ activeUsers: number; activeForms: number; activeSubscribers: number }>("OrganisationUsage").implement({
  fields: (t) => ({
    activeUsers: t.exposeInt("activeUsers"),
    activeForms: t.exposeInt("activeForms"),
    activeSubscribers: t.exposeInt("activeSubscribers"),
  }),
});

export const FileRefType = builder.objectRef<{ fileURL: string }>("FileRef").implement({
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
    /** The organisation's public page: its slug as a subdomain of the product's domain. */
    publicURL: t.string({
      select: { columns: { slug: true } },
      resolve: (org, _args, ctx) => organisationSiteUrl(ctx.services.config, org.slug),
    }),
    logoBlobID: t.string({ nullable: true, select: { columns: { logoBlobId: true } }, resolve: (org) => org.logoBlobId }),
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
    legalClocksEnabled: t.exposeBoolean("legalClocksEnabled", { description: "Acknowledge within 7 days, feedback within 3 months (EU Directive 2019/1937 Art. 9)." }),
    retentionMonths: t.exposeInt("retentionMonths", { nullable: true, description: "Closed reports are deleted this many months after closing; null is off (decision 052)." }),
    generalEnquiryLabel: t.exposeString("generalEnquiryLabel"),
    generalEnquiryWelcomeMessageContent: t.exposeString("generalEnquiryWelcomeMessageContent"),
    allowGeneralEnquiryChatFileUploads: t.exposeBoolean("allowGeneralEnquiryChatFileUploads"),
    portalWelcomeMessageEnabled: t.exposeBoolean("portalWelcomeMessageEnabled"),
    portalWelcomeMessageContent: t.exposeString("portalWelcomeMessageContent"),
    showLogoOnReportForms: t.exposeBoolean("showLogoOnReportForms"),
    enableEmailAuth2FA: t.exposeBoolean("enableEmailAuth2FA"),
    enableSSO: t.exposeBoolean("enableSSO"),
    enableFormTranslations: t.exposeBoolean("enableFormTranslations"),
    formLanguage: t.exposeString("formLanguage", { description: "The language the organisation writes its forms in (a code such as en or zh-Hans): what translations start from." }),
    isGuestMember: t.boolean({
      resolve: (org, _args, ctx) => ctx.actor.kind === "staff" && ctx.actor.role === "GUEST_MEMBER" && ctx.actor.organisationId !== org.id,
    }),
    usage: t.field({
      type: UsageType,
      resolve: async (org, _args, ctx) => {
        // activeUsers is the seat rule's own count (seats.ts), so the console shows what a claim checks.
        const [seats, [formsRow], [subscribersRow]] = await Promise.all([
          seatUsage(ctx.db, org.id),
          ctx.db.select({ n: count() }).from(reportForms).where(and(eq(reportForms.organisationId, org.id), eq(reportForms.status, "Active"), eq(reportForms.archived, false))),
          ctx.db.select({ n: count() }).from(organisationEmailSubscribers).where(eq(organisationEmailSubscribers.organisationId, org.id)),
        ]);
        return { activeUsers: seats?.activeUsers ?? 0, activeForms: formsRow?.n ?? 0, activeSubscribers: subscribersRow?.n ?? 0 };
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
    ownPassword: t.string({ required: false, description: "The super admin's own current password: needed to change enableEmailAuth2FA or enableSSO." }),
    ownPasscode: t.string({ required: false, description: "The super admin's own passcode, with ownPassword, while their two-factor authentication is on." }),
    ownRecoveryCode: t.string({ required: false, description: "The super admin's own recovery code, in place of ownPasscode (it is used up)." }),
    formLanguage: t.string({ required: false }),
    staleMessageIntervalNumber: t.int({ required: false }),
    staleMessageIntervalUnit: t.field({ type: IntervalUnitEnum, required: false }),
    generalEnquiryEnabled: t.boolean({ required: false }),
    legalClocksEnabled: t.boolean({ required: false }),
    retentionMonths: t.int({ required: false, description: "1 to 120; null turns retention off." }),
    generalEnquiryLabel: t.string({ required: false }),
    generalEnquiryWelcomeMessageContent: t.string({ required: false }),
    allowGeneralEnquiryChatFileUploads: t.boolean({ required: false }),
    portalWelcomeMessageEnabled: t.boolean({ required: false }),
    portalWelcomeMessageContent: t.string({ required: false }),
    showLogoOnReportForms: t.boolean({ required: false }),
    logoPaddingPixels: t.int({ required: false }),
    logoWidthPixels: t.int({ required: false }),
    fontFamily: t.field({ type: FontFamilyEnum, required: false }),
    logoBlobID: t.string({ required: false, description: "'-' removes the logo; the current logo's id keeps it. New logos come through organisationUpdateLogo." }),
  }),
});

const OrganisationCreateInputType = builder.inputType("OrganisationCreateInput", {
  fields: (t) => ({ name: t.string({ required: true }), abn: t.string({ required: true }) }),
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
      const input = await parseOnceFound(
        ctx,
        "OrganisationUpdate",
        (db, actor) => reachableOrganisation(db, actor, args.id),
        () => parseWith(OrganisationSettingsInput, args.input as Record<string, unknown>),
      );
      // parseWith drops nulls as "not given"; for retention an explicit null is "Off" (decision 052).
      if (args.input.retentionMonths === null) input.retentionMonths = null;
      const row = await updateOrganisation(ctx, String(args.id), input);
      return (await ctx.db.query.organisations.findFirst(query({ where: { id: row.id } })))!;
    },
  }),
  organisationCreate: t.drizzleField({
    type: OrganisationType,
    args: { input: t.arg({ type: OrganisationCreateInputType, required: true }) },
    authScopes: { permission: "OrganisationCreate" },
    resolve: async (query, _root, args, ctx) => {
      const row = await createOrganisation(ctx, parseWith(OrganisationCreateInput, args.input));
      return (await ctx.db.query.organisations.findFirst(query({ where: { id: row.id } })))!;
    },
  }),
  organisationUpdateLogo: t.drizzleField({
    type: OrganisationType,
    // Optional in the schema so that a call without its file is answered by the server's own message.
    args: { id: t.arg.id({ required: true }), file: t.arg({ type: "File", required: false }) },
    authScopes: { permission: "OrganisationUpdate" },
    resolve: async (query, _root, args, ctx) => {
      const id = await updateOrganisationLogo(ctx, String(args.id), args.file ?? null);
      return (await ctx.db.query.organisations.findFirst(query({ where: { id } })))!;
    },
  }),
  organisationArchive: t.drizzleField({
    type: OrganisationType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "OrganisationArchive" },
    resolve: async (query, _root, args, ctx) => {
      const row = await setOrganisationArchived(ctx, String(args.id), true);
      return (await ctx.db.query.organisations.findFirst(query({ where: { id: row.id } })))!;
    },
  }),
  organisationUnarchive: t.drizzleField({
    type: OrganisationType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "OrganisationUnarchive" },
    resolve: async (query, _root, args, ctx) => {
      const row = await setOrganisationArchived(ctx, String(args.id), false);
      return (await ctx.db.query.organisations.findFirst(query({ where: { id: row.id } })))!;
    },
  }),
}));
