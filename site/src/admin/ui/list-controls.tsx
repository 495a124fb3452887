import { SORT_DIRECTIONS } from '../../../../api/shared/enums';
import { FILTER_LIST_OPTIONS, type FilterListParams } from './filter-list-params';
import { SEARCH_MAX_LENGTH } from './list-address';
import { SelectField, type SelectOption } from './select-field';

// The pieces every paged list's controls share: the search box, and sort key with direction.

const DIRECTION_OPTIONS: SelectOption[] = SORT_DIRECTIONS.map((value) => ({ value, label: value }));
export type SortDirection = (typeof SORT_DIRECTIONS)[number];


type SearchFieldProps = { id: string; value: string; placeholder: string; onChange: (text: string) => void };

export function SearchField({ id, value, placeholder, onChange }: SearchFieldProps) {
  return (
    <div className="field list-controls__field list-controls__search">
      <label className="field__label" htmlFor={id}>
        Search
      </label>
      <input
        id={id}
        className="field__input"
        type="search"
        value={value}
        maxLength={SEARCH_MAX_LENGTH}
        placeholder={placeholder}
        autoComplete="off"
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

type SortFieldsProps<K extends string> = {
  idPrefix: string;
  sortBy: K;
  sortDir: SortDirection;
  sortOptions: readonly SelectOption[];
  /** A change of either goes back to page 1. */
  onChange: (change: { sortBy?: K; sortDir?: SortDirection; page: 1 }) => void;
};

export function SortFields<K extends string>({ idPrefix, sortBy, sortDir, sortOptions, onChange }: SortFieldsProps<K>) {
  return (
    <>
      <SelectField id={`${idPrefix}-sort`} label="Sort by" value={sortBy} options={sortOptions} onChange={(value) => onChange({ sortBy: value as K, page: 1 })} />
      <SelectField
        id={`${idPrefix}-direction`}
        label="Direction"
        value={sortDir}
        options={DIRECTION_OPTIONS}
        onChange={(value) => onChange({ sortDir: value as SortDirection, page: 1 })}
      />
    </>
  );
}

type FilterListControlsProps = {
  idPrefix: string;
  placeholder: string;
  filter: FilterListParams['filter'];
  searchText: string;
  onSearchText: (text: string) => void;
  /** A new filter goes back to page 1. */
  onChange: (change: Partial<FilterListParams>) => void;
};

/** Search and the Active / Archived / All filter: the controls of the lists that have nothing else to sort by. */
export function FilterListControls({ idPrefix, placeholder, filter, searchText, onSearchText, onChange }: FilterListControlsProps) {
  return (
    <div className="list-controls" role="search">
      <SearchField id={`${idPrefix}-search`} value={searchText} placeholder={placeholder} onChange={onSearchText} />
      <SelectField
        id={`${idPrefix}-filter`}
        label="Filter"
        value={filter}
        options={FILTER_LIST_OPTIONS}
        onChange={(value) => onChange({ filter: value as FilterListParams['filter'], page: 1 })}
      />
    </div>
  );
}
