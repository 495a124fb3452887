import { useCallback, useEffect, useState } from 'react';
import { useStore } from '../../lib/use-store';
import { $location, navigate } from '../router';
import type { ListState } from './list-address';
import { useDebounced } from './use-debounced';

/** Spec: search text is debounced by 500 ms and resets to page 1. */
export const SEARCH_DEBOUNCE_MS = 500;

/**
 * A paged, searchable list whose state lives in the address (?search=…&page=…), so Back from an
 * item returns to the same view and a link shares it. The search box is kept apart from the address
 * while typing; once it settles for 500 ms the search runs from page 1.
 */
export function useListAddress<P extends ListState>(read: (query: string) => P, write: (params: P) => string) {
  const location = useStore($location);
  const params = read(location.search);
  const [searchText, setSearchText] = useState(params.search);
  const settled = useDebounced(searchText, SEARCH_DEBOUNCE_MS);

  const update = useCallback(
    (change: Partial<P>, replace = false) => {
      const current = $location.get();
      navigate(`${current.pathname}${write({ ...read(current.search), ...change })}`, { replace });
    },
    [read, write],
  );

  useEffect(() => {
    if (settled.trim() !== read($location.get().search).search) update({ search: settled.trim(), page: 1 } as Partial<P>, true);
  }, [settled, update, read]);
  // Back and Forward bring another search with them.
  useEffect(() => {
    setSearchText((text) => (text.trim() === params.search ? text : params.search));
  }, [params.search]);

  return { params, searchText, setSearchText, update };
}

/**
 * A page past the end (after an archive, an old link, a filter that now matches fewer) goes to the
 * last page there is, replacing the address rather than adding to the history.
 */
export function useLastPageGuard(
  rows: readonly unknown[] | undefined,
  total: number,
  page: number,
  pageSize: number,
  update: (change: { page: number }, replace: boolean) => void,
): void {
  useEffect(() => {
    const pages = Math.max(1, Math.ceil(total / pageSize));
    if (rows && rows.length === 0 && total > 0 && page > pages) update({ page: pages }, true);
  }, [rows, total, page, pageSize, update]);
}
