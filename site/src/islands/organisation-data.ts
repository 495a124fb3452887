import * as v from 'valibot';
import { FONT_FAMILIES } from './organisation-display';

// Shape of the JSON the server injects into the organisation page shell.
// Parsed rather than trusted so a server/site mismatch shows an error message
// instead of a blank page.

const organisationSchema = v.object({
  id: v.string(),
  name: v.string(),
  slug: v.string(),
  logoUrl: v.nullable(v.string()),
  // An unknown family must not break the page; the default is the spec's.
  fontFamily: v.fallback(v.picklist(FONT_FAMILIES), 'Helvetica Neue'),
  generalEnquiryEnabled: v.boolean(),
  generalEnquiryLabel: v.string(),
  // Optional until every server sends it; plain text or HTML from the editor.
  generalEnquiryWelcomeMessageContent: v.nullish(v.string(), ''),
  portalWelcomeMessageEnabled: v.boolean(),
  portalWelcomeMessageContent: v.string(),
});

const pageSchema = v.object({
  organisation: organisationSchema,
  forms: v.array(v.object({ id: v.string(), name: v.string() })),
});

export type OrganisationPageData = v.InferOutput<typeof pageSchema>;
export type OrganisationSummary = OrganisationPageData['organisation'];
export type ReportFormSummary = OrganisationPageData['forms'][number];

export function parseOrganisationPageData(value: unknown): OrganisationPageData | undefined {
  const result = v.safeParse(pageSchema, value);
  return result.success ? result.output : undefined;
}

export function sortFormsByName(forms: readonly ReportFormSummary[]): ReportFormSummary[] {
  return [...forms].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }));
}
