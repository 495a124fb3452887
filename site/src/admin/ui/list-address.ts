// Reading a list's state from its address; pure, so it runs outside the browser too (the bench replays it).

export type ListState = { search: string; page: number };

/** Search text beyond this is cut, in the box and in the address. */
export const SEARCH_MAX_LENGTH = 200;

/** A value from the address if it is one of `allowed`, else the fallback: old or hand-edited links never break a list. */
export function pickParam<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** The search text and page every list keeps in its address (an invalid page is page 1). */
export function readSearchAndPage(query: URLSearchParams, maxSearchLength: number): ListState {
  const page = Number.parseInt(query.get('page') ?? '', 10);
  return { search: (query.get('search') ?? '').slice(0, maxSearchLength), page: Number.isFinite(page) && page >= 1 ? page : 1 };
}
