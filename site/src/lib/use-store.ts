import type { ReadableAtom } from 'nanostores';
import { useCallback, useSyncExternalStore } from 'react';

// A local binding instead of @nanostores/react: one hook is all we need and
// it keeps the dependency list short.
export function useStore<T>(store: ReadableAtom<T>): T {
  const subscribe = useCallback((onChange: () => void) => store.listen(onChange), [store]);
  const getSnapshot = useCallback(() => store.get(), [store]);
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
