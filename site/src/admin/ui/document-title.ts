import { useEffect } from 'react';

// Every console screen names itself in the browser's title, most specific part first
// ('Team – Report ABCDE-12345 – Lantern Admin'), so tabs, history and screen readers tell them apart (decision 018).

export const TITLE_SUFFIX = 'Lantern Admin';

export function documentTitle(...parts: string[]): string {
  return [...parts, TITLE_SUFFIX].join(' – ');
}

/**
 * Sets the title while the screen is shown; the parts are joined as documentTitle() does.
 * null leaves the title to a part of the screen that knows better (a report's current tab).
 */
export function useDocumentTitle(parts: string[] | null): void {
  const title = parts === null ? null : documentTitle(...parts);
  useEffect(() => {
    if (title !== null) document.title = title;
  }, [title]);
}
