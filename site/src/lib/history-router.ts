import { useEffect, useState } from 'react';

// The reporter islands route between their own paths with the History API
// instead of full page loads: an unload logs the reporter out, so moving
// between steps or tabs must never unload the page.

const CHANGE_EVENT = 'popstate';

function current(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/**
 * The current path and query ('' in the build-time render and before hydration), re-rendering
 * on navigate() and Back/Forward. Plain state rather than useSyncExternalStore: a route change
 * then lands in the same render as the state updates made next to it (started, credentials…),
 * so guards never see the new route with the old state.
 */
export function useHistoryLocation(): string {
  const [location, setLocation] = useState('');
  useEffect(() => {
    const onChange = () => setLocation(current());
    onChange();
    window.addEventListener(CHANGE_EVENT, onChange);
    return () => window.removeEventListener(CHANGE_EVENT, onChange);
  }, []);
  return location;
}

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent(CHANGE_EVENT));
}
