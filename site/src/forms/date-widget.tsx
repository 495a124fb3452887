import { displayDate, isIsoDate } from '../../../api/shared/form-definition';
import { describedBy, widgetIds, WidgetFrame, type WidgetProps } from './widget-frame';

// The browser's own date picker stores YYYY-MM-DD; its display follows the
// browser's locale, so the spec's dd/MM/yyyy is shown beside it as well.
export function DateWidget({ widget, value, onChange, error }: WidgetProps) {
  const ids = widgetIds(widget);
  const iso = value[0] ?? '';
  return (
    <WidgetFrame widget={widget} error={error}>
      <div className="form-date">
        <input
          id={ids.input}
          name={widget.id}
          type="date"
          className="form-input form-input--date"
          value={iso}
          autoComplete="off"
          aria-required={widget.required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(widget, error)}
          onChange={(event) => onChange(event.target.value === '' ? [] : [event.target.value])}
        />
        <span className="form-date__display" aria-live="polite">
          {isIsoDate(iso) ? displayDate(iso) : ''}
        </span>
      </div>
    </WidgetFrame>
  );
}
