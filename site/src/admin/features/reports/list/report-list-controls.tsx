import { SearchField, SortFields } from '../../../ui/list-controls';
import { SelectField as Select } from '../../../ui/select-field';
import type { Tag } from '../reports-api';
import { FILTER_OPTIONS, SORT_OPTIONS, type ListParams } from './list-params';

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
      <SearchField id="report-search" value={searchText} placeholder="Search reports" onChange={onSearchText} />
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
      <SortFields idPrefix="report" sortBy={params.sortBy} sortDir={params.sortDir} sortOptions={SORT_OPTIONS} onChange={onChange} />
    </div>
  );
}
