import { useEffect, useRef } from 'react';

// Titles (page-title.ts) and focus for reporter pages that change content without loading a page
// (docs/decisions/017-reporter-titles-and-focus.md).

export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}

/**
 * When `key` changes after the first render (a new step or tab), moves focus to the element the
 * selector names, the new content's heading: screen readers read it out, and keyboard users go on
 * from there instead of from a button that has gone. The first render keeps the browser's own
 * start, so a fresh page load is announced the usual way.
 */
export function useFocusOnChange(key: string | undefined, selector: string): void {
  const previous = useRef(key);
  useEffect(() => {
    if (key === undefined || previous.current === key) return;
    const hadKey = previous.current !== undefined;
    previous.current = key;
    if (!hadKey) return;
    document.querySelector<HTMLElement>(selector)?.focus();
  }, [key, selector]);
}
