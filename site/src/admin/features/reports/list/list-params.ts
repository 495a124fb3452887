import { REPORT_LIST_FILTERS, SORT_DIRECTIONS, SORT_KEYS, type ReportListFilter } from '../../../../../../api/shared/enums';
import { spaced } from '../../../ui/badges';
import { pickParam, readSearchAndPage, SEARCH_MAX_LENGTH } from '../../../ui/list-address';

// The list's state lives in the address (?filter=…&page=…), so Back from a report returns to the
// same page of the same search, and a list can be shared.

export const PAGE_SIZE = 20;

export type SortKey = (typeof SORT_KEYS)[number];
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

export type ListParams = {
  filter: ReportListFilter;
  sortBy: SortKey;
  sortDir: SortDirection;
  search: string;
  tagID: string;
  page: number;
};

export const DEFAULT_PARAMS: ListParams = { filter: 'Active', sortBy: 'DateCreated', sortDir: 'Descending', search: '', tagID: '', page: 1 };

export const FILTER_OPTIONS = REPORT_LIST_FILTERS.map((value) => ({ value, label: spaced(value) }));
export const SORT_OPTIONS = SORT_KEYS.map((value) => ({ value, label: spaced(value) }));

export function readParams(search: string): ListParams {
  const query = new URLSearchParams(search);
  return {
    filter: pickParam(query.get('filter'), REPORT_LIST_FILTERS, DEFAULT_PARAMS.filter),
    sortBy: pickParam(query.get('sortBy'), SORT_KEYS, DEFAULT_PARAMS.sortBy),
    sortDir: pickParam(query.get('sortDir'), SORT_DIRECTIONS, DEFAULT_PARAMS.sortDir),
    tagID: query.get('tag') ?? '',
    ...readSearchAndPage(query, SEARCH_MAX_LENGTH),
  };
}

/** Only what differs from the defaults goes in the address. */
export function writeParams(params: ListParams): string {
  const query = new URLSearchParams();
  if (params.filter !== DEFAULT_PARAMS.filter) query.set('filter', params.filter);
  if (params.sortBy !== DEFAULT_PARAMS.sortBy) query.set('sortBy', params.sortBy);
  if (params.sortDir !== DEFAULT_PARAMS.sortDir) query.set('sortDir', params.sortDir);
  if (params.search) query.set('search', params.search);
  if (params.tagID) query.set('tag', params.tagID);
  if (params.page !== 1) query.set('page', String(params.page));
  const text = query.toString();
  return text ? `?${text}` : '';
}
