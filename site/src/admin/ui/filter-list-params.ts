import { LIST_FILTERS, type ListFilter } from '../../../../api/shared/enums';
import { pickParam, readSearchAndPage, SEARCH_MAX_LENGTH } from './list-address';

// The address of a list with the spec's three filters (Active, Archived, All), a search and a page:
// report forms, form templates. Only what differs from the defaults goes in the address.

export type FilterListParams = { filter: ListFilter; search: string; page: number };

export const FILTER_LIST_OPTIONS = LIST_FILTERS.map((value) => ({ value, label: value }));

export function readFilterListParams(search: string): FilterListParams {
  const query = new URLSearchParams(search);
  return { filter: pickParam(query.get('filter'), LIST_FILTERS, 'Active'), ...readSearchAndPage(query, SEARCH_MAX_LENGTH) };
}

export function writeFilterListParams(params: FilterListParams): string {
  const query = new URLSearchParams();
  if (params.filter !== 'Active') query.set('filter', params.filter);
  if (params.search) query.set('search', params.search);
  if (params.page !== 1) query.set('page', String(params.page));
  const text = query.toString();
  return text ? `?${text}` : '';
}
