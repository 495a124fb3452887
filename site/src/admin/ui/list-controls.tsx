import { SORT_DIRECTIONS } from '../../../../api/shared/enums';
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
