import { and, asc, eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { organisations, reportForms } from "../../../db/schema/index.ts";
import type { FontFamily } from "../../shared/enums.ts";
import type { OrganisationCache } from "./organisation-cache.ts";

/** What anyone may know of an organisation: what its public page shows. */
export interface PublicOrganisation {
  id: string;
  name: string;
  slug: string;
  logoUrl: string | null;
  fontFamily: FontFamily;
  generalEnquiryEnabled: boolean;
  generalEnquiryLabel: string;
  generalEnquiryWelcomeMessageContent: string;
  portalWelcomeMessageEnabled: boolean;
  portalWelcomeMessageContent: string;
  showLogoOnReportForms: boolean;
}

export interface PublicOrganisationPage {
  organisation: PublicOrganisation;
  forms: { id: string; name: string }[];
}

/**
 * An active (not archived) organisation by slug, or null. With a cache, one found before is served
 * from it; the copy is frozen, since every request on that host shares it.
 */
export async function findActiveOrganisation(db: Database, slug: string, cache?: OrganisationCache): Promise<PublicOrganisation | null> {
  const cached = cache?.get(slug);
  if (cached) return cached;
  const markedAt = cache?.mark() ?? 0;
  const [row] = await db
    .select()
    .from(organisations)
    .where(and(eq(organisations.slug, slug), eq(organisations.archived, false)))
    .limit(1);
  if (!row) return null;
  const organisation: PublicOrganisation = Object.freeze({
    id: row.id,
    name: row.name,
    slug: row.slug,
    logoUrl: row.logoBlobId ? `/api/files/organisation-logo/${row.id}` : null,
    fontFamily: row.fontFamily,
    generalEnquiryEnabled: row.generalEnquiryEnabled,
    generalEnquiryLabel: row.generalEnquiryLabel,
    generalEnquiryWelcomeMessageContent: row.generalEnquiryWelcomeMessageContent,
    portalWelcomeMessageEnabled: row.portalWelcomeMessageEnabled,
    portalWelcomeMessageContent: row.portalWelcomeMessageContent,
    showLogoOnReportForms: row.showLogoOnReportForms,
  });
  cache?.store(slug, organisation, markedAt);
  return organisation;
}

/** The organisation page's data: the organisation and its published, unarchived Custom forms by name. */
export async function loadOrganisationPage(db: Database, organisation: PublicOrganisation): Promise<PublicOrganisationPage> {
  const forms = await db
    .select({ id: reportForms.id, name: reportForms.name, deployedBuildId: reportForms.deployedBuildId })
    .from(reportForms)
    .where(and(eq(reportForms.organisationId, organisation.id), eq(reportForms.archived, false), eq(reportForms.type, "Custom"), eq(reportForms.status, "Active")))
    .orderBy(asc(reportForms.name));
  return { organisation, forms: forms.filter((form) => form.deployedBuildId !== null).map(({ id, name }) => ({ id, name })) };
}
