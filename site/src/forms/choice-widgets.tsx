import { optionLabel } from './translated-text';
import { describedBy, widgetIds, WidgetFrame, type WidgetProps } from './widget-frame';

// Answers to choice widgets are the chosen option texts (spec section 5), the organisation's originals
// even when the reporter reads the options translated.

export function SelectWidget({ widget, value, onChange, error }: WidgetProps) {
  return (
    <WidgetFrame widget={widget} error={error}>
      <select
        id={widgetIds(widget).input}
        name={widget.id}
        className="form-input form-select"
        value={value[0] ?? ''}
        autoComplete="off"
        aria-required={widget.required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(widget, error)}
        onChange={(event) => onChange(event.target.value === '' ? [] : [event.target.value])}
      >
        <option value="">Select…</option>
        {widget.answers.map((option) => (
          <option key={option} value={option} {...widget.translatedIn}>
            {optionLabel(widget, option)}
          </option>
        ))}
      </select>
    </WidgetFrame>
  );
}

export function RadioWidget({ widget, value, onChange, error }: WidgetProps) {
  const ids = widgetIds(widget);
  return (
    <WidgetFrame widget={widget} error={error} group>
      <div
        className="form-options"
        role="radiogroup"
        aria-labelledby={ids.label}
        aria-required={widget.required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(widget, error)}
      >
        {widget.answers.map((option, index) => (
          <label key={option} className="form-option" htmlFor={`${ids.input}-${index}`}>
            <input
              id={`${ids.input}-${index}`}
              type="radio"
              className="form-option__input form-option__input--radio"
              name={ids.input}
              value={option}
              checked={value[0] === option}
              autoComplete="off"
              onChange={() => onChange([option])}
            />
            <span {...widget.translatedIn}>{optionLabel(widget, option)}</span>
          </label>
        ))}
      </div>
    </WidgetFrame>
  );
}

export function CheckboxWidget({ widget, value, onChange, error }: WidgetProps) {
  const ids = widgetIds(widget);
  // Keep the options' own order whatever order they were ticked in.
  const toggle = (option: string, checked: boolean) =>
    onChange(widget.answers.filter((candidate) => (candidate === option ? checked : value.includes(candidate))));
  return (
    <WidgetFrame widget={widget} error={error} group>
      <div className="form-options" role="group" aria-labelledby={ids.label} aria-describedby={describedBy(widget, error)}>
        {widget.answers.map((option, index) => (
          <label key={option} className="form-option" htmlFor={`${ids.input}-${index}`}>
            <input
              id={`${ids.input}-${index}`}
              type="checkbox"
              className="form-option__input form-option__input--checkbox"
              name={ids.input}
              value={option}
              checked={value.includes(option)}
              autoComplete="off"
              aria-invalid={error ? true : undefined}
              onChange={(event) => toggle(option, event.target.checked)}
            />
            <span {...widget.translatedIn}>{optionLabel(widget, option)}</span>
          </label>
        ))}
      </div>
    </WidgetFrame>
  );
}
