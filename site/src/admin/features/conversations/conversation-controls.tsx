import { SelectField } from '../../ui/select-field';
import { DIRECTION_OPTIONS, PRIORITY_OPTIONS, SORT_OPTIONS, type ConversationParams } from './conversation-params';

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
      <div className="field list-controls__field list-controls__search">
        <label className="field__label" htmlFor="conversation-search">
          Search
        </label>
        <input
          id="conversation-search"
          className="field__input"
          type="search"
          value={searchText}
          maxLength={200}
          placeholder="Search by report ID"
          autoComplete="off"
          onChange={(event) => onSearchText(event.target.value)}
        />
      </div>
      <SelectField
        id="conversation-priority"
        label="Priority"
        value={params.priority}
        options={PRIORITY_OPTIONS}
        onChange={(value) => onChange({ priority: value as ConversationParams['priority'], page: 1 })}
      />
      <SelectField
        id="conversation-sort"
        label="Sort by"
        value={params.sortBy}
        options={SORT_OPTIONS}
        onChange={(value) => onChange({ sortBy: value as ConversationParams['sortBy'], page: 1 })}
      />
      <SelectField
        id="conversation-direction"
        label="Direction"
        value={params.sortDir}
        options={DIRECTION_OPTIONS}
        onChange={(value) => onChange({ sortDir: value as ConversationParams['sortDir'], page: 1 })}
      />
    </div>
  );
}
