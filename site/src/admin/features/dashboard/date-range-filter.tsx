import { rangeProblem, todayIso, type DateRange } from './dashboard-api';
import { DateInput } from './date-input';

type DateRangeFilterProps = {
  value: DateRange;
  onChange: (range: DateRange) => void;
};

/** From and To on the reports' completion dates; neither may be after today. */
export function DateRangeFilter({ value, onChange }: DateRangeFilterProps) {
  const today = todayIso();
  const problem = rangeProblem(value, today);
  return (
    <fieldset className="date-range">
      <legend className="visually-hidden">Filter by date completed</legend>
      <DateInput id="dashboard-from" label="From" value={value.from} max={value.to || today} onChange={(from) => onChange({ ...value, from })} />
      <DateInput id="dashboard-to" label="To" value={value.to} min={value.from} max={today} onChange={(to) => onChange({ ...value, to })} />
      {(value.from || value.to) && (
        <button type="button" className="button button--small button--secondary date-range__clear" onClick={() => onChange({ from: '', to: '' })}>
          Clear
        </button>
      )}
      {problem && (
        <p className="field__error date-range__error" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
