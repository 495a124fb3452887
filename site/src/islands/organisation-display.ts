// How an organisation's choices show on reporter pages; apart from organisation-data.ts (the
// organisation page's data and its schema) so the report pages do not carry that schema.

export const FONT_FAMILIES = ['Helvetica Neue', 'Roboto', 'Montserrat'] as const;
export type FontFamily = (typeof FONT_FAMILIES)[number];

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
