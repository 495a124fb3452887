import { DateInput } from './date-input';
import { rangeProblem, todayIso, type DateRange } from './date-range';
import './date-range.css';

type DateRangeFilterProps = {
  value: DateRange;
  onChange: (range: DateRange) => void;
  /** Prefixes the inputs' ids, so two filters never share one. */
  idPrefix: string;
  /** What the dates are of, for screen readers, e.g. 'Filter by date completed'. */
  legend: string;
};

/** From and To, typed as dd/MM/yyyy or picked; neither may be after today. */
export function DateRangeFilter({ value, onChange, idPrefix, legend }: DateRangeFilterProps) {
  const today = todayIso();
  const problem = rangeProblem(value, today);
  return (
    <fieldset className="date-range">
      <legend className="visually-hidden">{legend}</legend>
      <DateInput id={`${idPrefix}-from`} label="From" value={value.from} max={value.to || today} onChange={(from) => onChange({ ...value, from })} />
      <DateInput id={`${idPrefix}-to`} label="To" value={value.to} min={value.from} max={today} onChange={(to) => onChange({ ...value, to })} />
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
