import { CONVERSATION_SORT_KEYS, PRIORITIES, SORT_DIRECTIONS, type Priority } from '../../../../../api/shared/enums';
import { pickParam, readSearchAndPage, SEARCH_MAX_LENGTH } from '../../ui/list-address';

// The page's state lives in the address (?sortBy=…&page=…), as the reports list's does, so Back
// from a report's Messages tab returns to the same page of the same search.

/** Spec section 9: pages of 20, search settling for 500 ms before it runs from page 1. */
export const PAGE_SIZE = 20;


export type ConversationSortKey = (typeof CONVERSATION_SORT_KEYS)[number];
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

export type ConversationParams = {
  search: string;
  /** '' is every priority. */
  priority: Priority | '';
  sortBy: ConversationSortKey;
  sortDir: SortDirection;
  page: number;
};

/** Spec section 9: the conversations default to Last Message, newest first. */
export const DEFAULT_PARAMS: ConversationParams = { search: '', priority: '', sortBy: 'DateLastMessage', sortDir: 'Descending', page: 1 };

const SORT_LABELS: Record<ConversationSortKey, string> = { DateCreated: 'Date Created', DateLastMessage: 'Last Message', Priority: 'Priority' };

export const SORT_OPTIONS = CONVERSATION_SORT_KEYS.map((value) => ({ value, label: SORT_LABELS[value] }));
export const PRIORITY_OPTIONS = [{ value: '', label: 'All priorities' }, ...PRIORITIES.map((value) => ({ value, label: value }))];

export function readParams(search: string): ConversationParams {
  const query = new URLSearchParams(search);
  return {
    priority: pickParam<Priority | ''>(query.get('priority'), PRIORITIES, ''),
    sortBy: pickParam(query.get('sortBy'), CONVERSATION_SORT_KEYS, DEFAULT_PARAMS.sortBy),
    sortDir: pickParam(query.get('sortDir'), SORT_DIRECTIONS, DEFAULT_PARAMS.sortDir),
    ...readSearchAndPage(query, SEARCH_MAX_LENGTH),
  };
}

/** Only what differs from the defaults goes in the address. */
export function writeParams(params: ConversationParams): string {
  const query = new URLSearchParams();
  if (params.search) query.set('search', params.search);
  if (params.priority) query.set('priority', params.priority);
  if (params.sortBy !== DEFAULT_PARAMS.sortBy) query.set('sortBy', params.sortBy);
  if (params.sortDir !== DEFAULT_PARAMS.sortDir) query.set('sortDir', params.sortDir);
  if (params.page !== 1) query.set('page', String(params.page));
  const text = query.toString();
  return text ? `?${text}` : '';
}
