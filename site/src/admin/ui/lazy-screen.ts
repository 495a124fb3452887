import { lazy, type ComponentType } from 'react';

/**
 * A screen loaded in its own chunk when first shown (decision 024: the login page downloads no
 * screen it does not show). It keeps its export's name as displayName, so the route table's tests
 * (and React's tools) can tell lazy screens apart.
 */
export function lazyScreen<N extends string, P>(name: N, load: () => Promise<Record<N, ComponentType<P>>>) {
  return Object.assign(
    lazy(() => load().then((module) => ({ default: module[name] }))),
    { displayName: name },
  );
}
