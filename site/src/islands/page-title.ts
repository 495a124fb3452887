// Reporter page titles (docs/decisions/017-reporter-titles-focus-and-escape.md), without React: the
// organisation page has none.

const TITLE_SEPARATOR = ' – ';

/**
 * A document title from the most specific part to the least: "Step 2 of 6: Incident – Workplace
 * Report – Demo Organisation". Only names the organisation chose go in: never a report ID or an
 * answer, because browsers keep titles in their history and show them in tab lists.
 */
export function pageTitle(...parts: readonly (string | undefined)[]): string {
  return parts
    .map((part) => part?.trim() ?? '')
    .filter((part) => part !== '')
    .join(TITLE_SEPARATOR);
}
