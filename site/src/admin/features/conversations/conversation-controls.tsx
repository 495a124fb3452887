import { SearchField, SortFields } from '../../ui/list-controls';
import { SelectField } from '../../ui/select-field';
import { PRIORITY_OPTIONS, SORT_OPTIONS, type ConversationParams } from './conversation-params';

type ConversationControlsProps = {
  params: ConversationParams;
  searchText: string;
  onSearchText: (text: string) => void;
  onChange: (change: Partial<ConversationParams>) => void;
};

/** Search, priority filter, sort and direction; any change but typing goes back to page 1 at once. */
export function ConversationControls({ params, searchText, onSearchText, onChange }: ConversationControlsProps) {
  return (
    <div className="list-controls" role="search">
      <SearchField id="conversation-search" value={searchText} placeholder="Search by report ID" onChange={onSearchText} />
      <SelectField
        id="conversation-priority"
        label="Priority"
        value={params.priority}
        options={PRIORITY_OPTIONS}
        onChange={(value) => onChange({ priority: value as ConversationParams['priority'], page: 1 })}
      />
      <SortFields idPrefix="conversation" sortBy={params.sortBy} sortDir={params.sortDir} sortOptions={SORT_OPTIONS} onChange={onChange} />
    </div>
  );
}
