import { eq } from "drizzle-orm";
import { organisations } from "../../../db/schema/index.ts";
import { builder } from "../../graphql/builder.ts";
import { UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { ORGANISATION_UNAVAILABLE } from "../../shared/messages.ts";
import { FileRefType, FontFamilyEnum } from "./graphql.ts";
import { findActiveOrganisation, loadOrganisationPage, type PublicOrganisation } from "./public.ts";
import type { Ctx } from "../../context.ts";

/**
 * The reporter side's organisation calls (spec document 1 §7: guestOrganisationGet, guestReportForms).
 * The pages carry the same data in their HTML; these answer only what the public page already shows.
 * On an organisation's own host only that organisation answers, as the form calls do.
 */

const GuestOrganisationType = builder.objectRef<PublicOrganisation>("GuestOrganisation").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    slug: t.exposeString("slug"),
    logo: t.field({ type: FileRefType, nullable: true, resolve: (organisation) => (organisation.logoUrl ? { fileURL: organisation.logoUrl } : null) }),
    fontFamily: t.expose("fontFamily", { type: FontFamilyEnum }),
    generalEnquiryEnabled: t.exposeBoolean("generalEnquiryEnabled"),
    generalEnquiryLabel: t.exposeString("generalEnquiryLabel"),
    generalEnquiryWelcomeMessageContent: t.exposeString("generalEnquiryWelcomeMessageContent"),
    portalWelcomeMessageEnabled: t.exposeBoolean("portalWelcomeMessageEnabled"),
    portalWelcomeMessageContent: t.exposeString("portalWelcomeMessageContent"),
    showLogoOnReportForms: t.exposeBoolean("showLogoOnReportForms"),
  }),
});

const GuestReportFormType = builder.objectRef<{ id: string; name: string }>("GuestReportForm").implement({
  fields: (t) => ({ id: t.exposeID("id"), name: t.exposeString("name") }),
});

const GuestReportFormListType = builder.objectRef<{ total: number; list: { id: string; name: string }[] }>("GuestReportFormList").implement({
  fields: (t) => ({ total: t.exposeInt("total"), list: t.expose("list", { type: [GuestReportFormType] }) }),
});

const GuestReportFormFilter = builder.inputType("GuestReportFormFilter", {
  fields: (t) => ({ organisationID: t.id({ required: true }) }),
});

/** Slugs are short lowercase words; anything else cannot name an organisation, so it is not looked up. */
const SLUG_SHAPE = /^[a-z0-9](?:[a-z0-9-]{0,62})$/;

function onThisHost(ctx: Ctx, organisation: PublicOrganisation | null): PublicOrganisation {
  const hostOrganisation = ctx.host.organisation;
  if (!organisation || (ctx.host.kind === "organisation" && hostOrganisation?.id !== organisation.id)) throw new UserError("NOT_FOUND", ORGANISATION_UNAVAILABLE);
  return organisation;
}

async function organisationById(ctx: Ctx, id: string): Promise<PublicOrganisation | null> {
  if (!isUuid(id)) return null;
  const hostOrganisation = ctx.host.organisation;
  if (hostOrganisation) return hostOrganisation.id === id ? hostOrganisation : null;
  const [row] = await ctx.db.select({ slug: organisations.slug }).from(organisations).where(eq(organisations.id, id)).limit(1);
  return row ? findActiveOrganisation(ctx.db, row.slug, ctx.services.organisationCache) : null;
}

builder.queryFields((t) => ({
  guestOrganisationGet: t.field({
    type: GuestOrganisationType,
    description: "An active organisation's public page data, by its slug.",
    args: { slug: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const slug = args.slug.trim().toLowerCase();
      const organisation = SLUG_SHAPE.test(slug) ? await findActiveOrganisation(ctx.db, slug, ctx.services.organisationCache) : null;
      return onThisHost(ctx, organisation);
    },
  }),
  guestReportForms: t.field({
    type: GuestReportFormListType,
    description: "The organisation's published report forms by name, as its public page lists them.",
    args: { filter: t.arg({ type: GuestReportFormFilter, required: true }) },
    resolve: async (_root, args, ctx) => {
      const organisation = onThisHost(ctx, await organisationById(ctx, String(args.filter.organisationID)));
      const { forms } = await loadOrganisationPage(ctx.db, organisation);
      return { total: forms.length, list: forms };
    },
  }),
}));
