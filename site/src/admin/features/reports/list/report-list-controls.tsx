import { SelectField as Select } from '../../../ui/select-field';
import type { Tag } from '../reports-api';
import { DIRECTION_OPTIONS, FILTER_OPTIONS, SORT_OPTIONS, type ListParams } from './list-params';

type ReportListControlsProps = {
  params: ListParams;
  searchText: string;
  onSearchText: (text: string) => void;
  onChange: (change: Partial<ListParams>) => void;
  /** Offered when the viewer may list tags and the list is not already one tag's. */
  tags?: Tag[] | undefined;
};

export function ReportListControls({ params, searchText, onSearchText, onChange, tags }: ReportListControlsProps) {
  return (
    <div className="list-controls" role="search">
      <div className="field list-controls__field list-controls__search">
        <label className="field__label" htmlFor="report-search">
          Search
        </label>
        <input
          id="report-search"
          className="field__input"
          type="search"
          value={searchText}
          maxLength={200}
          placeholder="Search reports"
          autoComplete="off"
          onChange={(event) => onSearchText(event.target.value)}
        />
      </div>
      <Select
        id="report-filter"
        label="Filter"
        value={params.filter}
        options={FILTER_OPTIONS}
        onChange={(value) => onChange({ filter: value as ListParams['filter'], page: 1 })}
      />
      {tags && (
        <Select
          id="report-tag"
          label="Tag"
          value={params.tagID}
          options={[{ value: '', label: 'All tags' }, ...tags.map((tag) => ({ value: tag.id, label: tag.name }))]}
          onChange={(value) => onChange({ tagID: value, page: 1 })}
        />
      )}
      <Select
        id="report-sort"
        label="Sort by"
        value={params.sortBy}
        options={SORT_OPTIONS}
        onChange={(value) => onChange({ sortBy: value as ListParams['sortBy'], page: 1 })}
      />
      <Select
        id="report-direction"
        label="Direction"
        value={params.sortDir}
        options={DIRECTION_OPTIONS}
        onChange={(value) => onChange({ sortDir: value as ListParams['sortDir'], page: 1 })}
      />
    </div>
  );
}
