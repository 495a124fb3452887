import { MAX_TEXT_ANSWER_LENGTH } from '../../../api/shared/form-definition';
import { describedBy, widgetIds, WidgetFrame, type WidgetProps } from './widget-frame';

// Autocomplete, spellcheck and capitalisation hints are off: a browser that
// remembers or sends what was typed here could give the reporter away.

function toAnswer(text: string): string[] {
  return text === '' ? [] : [text];
}

export function ShortTextWidget({ widget, value, onChange, error }: WidgetProps) {
  return (
    <WidgetFrame widget={widget} error={error}>
      <input
        id={widgetIds(widget).input}
        name={widget.id}
        type="text"
        className="form-input form-input--single"
        value={value[0] ?? ''}
        maxLength={MAX_TEXT_ANSWER_LENGTH}
        autoComplete="off"
        spellCheck={false}
        aria-required={widget.required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(widget, error)}
        onChange={(event) => onChange(toAnswer(event.target.value))}
      />
    </WidgetFrame>
  );
}

export function LongTextWidget({ widget, value, onChange, error }: WidgetProps) {
  return (
    <WidgetFrame widget={widget} error={error}>
      <textarea
        id={widgetIds(widget).input}
        name={widget.id}
        className="form-input form-input--multi"
        rows={5}
        value={value[0] ?? ''}
        maxLength={MAX_TEXT_ANSWER_LENGTH}
        autoComplete="off"
        spellCheck={false}
        aria-required={widget.required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(widget, error)}
        onChange={(event) => onChange(toAnswer(event.target.value))}
      />
    </WidgetFrame>
  );
}
