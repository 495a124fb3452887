import { useEffect, useRef } from 'react';
import { flushSync } from 'react-dom';

// A reporter's page must not come back with Back or Forward holding what it showed once (a new
// report's ID and password, a login being typed): browsers keep a page they leave whole, its DOM and
// its script's memory, in their back/forward cache, and Cache-Control: no-store does not keep every
// browser from doing so. So the page empties itself as it is hidden, and one whose session ended
// with it loads afresh if the cache brings it back anyway (docs/decisions/066-credentials-shown-once.md).

type PageHideOptions = {
  /** Load the page again when the back/forward cache restores it. */
  reloadWhenRestored?: boolean;
};

/**
 * Runs `onHide` when the page is hidden (left, reloaded, closed or frozen into the back/forward
 * cache). What it sets is drawn before the handler returns: the browser keeps the page as it is then.
 * The listener stays for the page's life and calls the latest `onHide`, so a re-render the handler
 * itself causes cannot take it off mid-dispatch.
 */
export function usePageHide(onHide: (() => void) | undefined, { reloadWhenRestored = false }: PageHideOptions = {}): void {
  const latest = useRef(onHide);
  useEffect(() => {
    latest.current = onHide;
  });
  useEffect(() => {
    const hide = () => {
      const run = latest.current;
      if (run) flushSync(run);
    };
    const show = (event: PageTransitionEvent) => {
      if (event.persisted && reloadWhenRestored) window.location.reload();
    };
    window.addEventListener('pagehide', hide);
    window.addEventListener('pageshow', show);
    return () => {
      window.removeEventListener('pagehide', hide);
      window.removeEventListener('pageshow', show);
    };
  }, [reloadWhenRestored]);
}
