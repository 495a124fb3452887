import type { DisplayWidget } from './translated-text';
import { Toggletip } from './toggletip';
import { widgetIds } from './widget-frame';

// Widgets that take no answer: a section's header and a read-only note.

export function SectionHeader({ widget }: { widget: DisplayWidget }) {
  const ids = widgetIds(widget);
  return (
    <header className="form-section__header">
      <div className="form-widget__head">
        <h2 className="form-section__title" id={ids.input} {...widget.translatedIn}>
          {widget.title}
        </h2>
        {widget.tooltip.trim() && <Toggletip id={ids.tip} text={widget.tooltip} about={widget.title} />}
      </div>
      {widget.caption.trim() && <p className="form-section__caption" {...widget.translatedIn}>{widget.caption}</p>}
    </header>
  );
}

export function NoteWidget({ widget }: { widget: DisplayWidget }) {
  const ids = widgetIds(widget);
  return (
    <div className="form-widget form-note" data-widget-id={widget.id}>
      <div className="form-widget__head">
        {widget.title.trim() && <p className="form-note__title" {...widget.translatedIn}>{widget.title}</p>}
        {widget.tooltip.trim() && <Toggletip id={ids.tip} text={widget.tooltip} about={widget.title} />}
      </div>
      {widget.caption.trim() && <p className="form-widget__caption form-note__text" {...widget.translatedIn}>{widget.caption}</p>}
    </div>
  );
}
