import { and, asc, eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { organisations, reportForms } from "../../../db/schema/index.ts";
import type { FontFamily } from "../../shared/enums.ts";

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

/** An active (not archived) organisation by slug, or null. */
export async function findActiveOrganisation(db: Database, slug: string): Promise<PublicOrganisation | null> {
  const [row] = await db
    .select()
    .from(organisations)
    .where(and(eq(organisations.slug, slug), eq(organisations.archived, false)))
    .limit(1);
  if (!row) return null;
  return {
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
  };
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
