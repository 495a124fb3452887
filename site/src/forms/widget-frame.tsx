import type { ReactNode } from 'react';
import type { FormWidget } from '../../../api/shared/form-definition';
import type { DisplayWidget } from './translated-text';
import { Toggletip } from './toggletip';

/** Everything a widget needs: its definition, its answer and a way to change it. */
export type WidgetProps = {
  widget: DisplayWidget;
  value: readonly string[];
  onChange: (value: string[]) => void;
  error: string | undefined;
};

/** Stable element ids for a widget, so labels, captions and errors can point at each other. */
export function widgetIds(widget: FormWidget) {
  const base = `lt-widget-${widget.id}`;
  return { input: base, label: `${base}-label`, caption: `${base}-caption`, error: `${base}-error`, tip: `${base}-tip` };
}

/** aria-describedby for the input: its caption and its error, when present. */
export function describedBy(widget: FormWidget, error: string | undefined): string | undefined {
  const ids = widgetIds(widget);
  const parts = [widget.caption.trim() ? ids.caption : '', error ? ids.error : ''].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function Title({ widget }: { widget: DisplayWidget }) {
  return (
    <>
      <span {...widget.translatedIn}>{widget.title}</span>
      {widget.required && (
        <>
          <span className="form-widget__required" aria-hidden="true">
            {' '}
            *
          </span>
          <span className="visually-hidden"> (required)</span>
        </>
      )}
    </>
  );
}

type WidgetFrameProps = {
  widget: DisplayWidget;
  error: string | undefined;
  /** Radio and checkbox groups: a title the options' group points at, instead of a label element. */
  group?: boolean;
  children: ReactNode;
};

export function WidgetFrame({ widget, error, group = false, children }: WidgetFrameProps) {
  const ids = widgetIds(widget);
  const tip = widget.tooltip.trim() ? <Toggletip id={ids.tip} text={widget.tooltip} about={widget.title} /> : null;
  const caption = widget.caption.trim() ? (
    <p className="form-widget__caption" id={ids.caption} {...widget.translatedIn}>
      {widget.caption}
    </p>
  ) : null;
  const errorText = error ? (
    <p className="form-widget__error" id={ids.error}>
      {error}
    </p>
  ) : null;
  const className = `form-widget${error ? ' form-widget--error' : ''}`;

  if (group) {
    // The options carry the group role, labelled by the title (not fieldset/legend), so the
    // (i) button can sit beside the title without becoming part of the group's name.
    return (
      <div className={className} data-widget-id={widget.id}>
        <div className="form-widget__head">
          <span className="form-widget__label" id={ids.label}>
            <Title widget={widget} />
          </span>
          {tip}
        </div>
        {caption}
        {children}
        {errorText}
      </div>
    );
  }
  return (
    <div className={className} data-widget-id={widget.id}>
      <div className="form-widget__head">
        <label className="form-widget__label" htmlFor={ids.input}>
          <Title widget={widget} />
        </label>
        {tip}
      </div>
      {caption}
      {children}
      {errorText}
    </div>
  );
}
