export type SelectOption = { value: string; label: string };

type SelectFieldProps = {
  id: string;
  label: string;
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
  /** Extra classes for the wrapper, e.g. the list controls' field width. */
  className?: string;
};

/** A labelled native select: the list pages' filter, sort and direction controls. */
export function SelectField({ id, label, value, options, onChange, className = 'list-controls__field' }: SelectFieldProps) {
  return (
    <div className={`field ${className}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="field__input" value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
