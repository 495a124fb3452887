import * as v from 'valibot';

// Shape of the JSON the server injects into the organisation page shell.
// Parsed rather than trusted so a server/site mismatch shows an error message
// instead of a blank page.

export const FONT_FAMILIES = ['Helvetica Neue', 'Roboto', 'Montserrat'] as const;
export type FontFamily = (typeof FONT_FAMILIES)[number];

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

// Logos must come from our own origin: an absolute URL to a file host would
// make the reporter's browser contact a third party. Parsing (rather than
// checking for a leading slash) also catches `//host` and `/\host`.
export function sameOriginImageUrl(url: string | null, origin: string): string | undefined {
  if (url === null || url === '') return undefined;
  try {
    const parsed = new URL(url, origin);
    return parsed.origin === origin ? `${parsed.pathname}${parsed.search}` : undefined;
  } catch {
    return undefined;
  }
}

export function fontDataValue(fontFamily: FontFamily): string {
  switch (fontFamily) {
    case 'Roboto':
      return 'roboto';
    case 'Montserrat':
      return 'montserrat';
    case 'Helvetica Neue':
      return 'helvetica';
  }
}

export function sortFormsByName(forms: readonly ReportFormSummary[]): ReportFormSummary[] {
  return [...forms].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }));
}
