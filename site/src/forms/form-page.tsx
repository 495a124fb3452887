import { useMemo, type ComponentType } from 'react';
import { visibleWidgetIds, type AnswerMap, type FormWidget } from '../../../api/shared/form-definition';
import type { WidgetType } from '../../../api/shared/enums';
import { CheckboxWidget, RadioWidget, SelectWidget } from './choice-widgets';
import { DateWidget } from './date-widget';
import { NoteWidget, SectionHeader } from './display-widgets';
import { LongTextWidget, ShortTextWidget } from './text-widgets';
import { themeStyle } from './theme';
import { widgetIds, type WidgetProps } from './widget-frame';
import './form.css';

const ANSWER_WIDGETS: Partial<Record<WidgetType, ComponentType<WidgetProps>>> = {
  ShortText: ShortTextWidget,
  LongText: LongTextWidget,
  Select: SelectWidget,
  Radio: RadioWidget,
  Checkbox: CheckboxWidget,
  Date: DateWidget,
};

const NO_ANSWER: readonly string[] = [];

export type FormPageProps = {
  /** The widgets of the page to draw (one entry of derivePages). */
  widgets: readonly FormWidget[];
  /**
   * The whole form, when the page is not the whole form: conditions may refer to
   * questions on earlier pages, and visibility cascades in form order.
   */
  formWidgets?: readonly FormWidget[];
  answers: AnswerMap;
  onChange: (widgetId: string, answer: string[]) => void;
  /** Messages by widget id ('Required', or whatever the server said). */
  errors?: Readonly<Record<string, string>>;
  /** The form's theme object; unset colours use the default palette. */
  theme?: unknown;
};

type Group = { section: FormWidget | null; items: FormWidget[] };

// A section header opens a group that runs to the next section, so the
// section's colours frame the questions under it.
function groupBySection(widgets: readonly FormWidget[]): Group[] {
  const groups: Group[] = [];
  for (const widget of widgets) {
    if (widget.type === 'Section') groups.push({ section: widget, items: [] });
    else if (groups.length === 0) groups.push({ section: null, items: [widget] });
    else groups.at(-1)!.items.push(widget);
  }
  return groups;
}

/**
 * The one form renderer: draws one page for the reporter and, later, for the
 * builder's preview. It holds no state of its own; visibility comes from the
 * shared form definition, so it always matches what the server accepts.
 */
export function FormPage({ widgets, formWidgets, answers, onChange, errors = {}, theme }: FormPageProps) {
  const visible = useMemo(() => visibleWidgetIds(formWidgets ?? widgets, answers), [formWidgets, widgets, answers]);
  const groups = useMemo(() => groupBySection(widgets), [widgets]);
  const style = useMemo(() => themeStyle(theme), [theme]);

  const renderItem = (widget: FormWidget) => {
    if (!visible.has(widget.id)) return null;
    if (widget.type === 'Note') return <NoteWidget key={widget.id} widget={widget} />;
    const Widget = ANSWER_WIDGETS[widget.type];
    if (!Widget) return null;
    return (
      <Widget
        key={widget.id}
        widget={widget}
        value={answers[widget.id] ?? NO_ANSWER}
        onChange={(value) => onChange(widget.id, value)}
        error={errors[widget.id]}
      />
    );
  };

  return (
    <div className="form-page" style={style}>
      {groups.map((group, index) => {
        if (group.section && !visible.has(group.section.id)) return null;
        return (
          <section
            key={group.section?.id ?? `group-${index}`}
            className="form-section"
            aria-labelledby={group.section ? widgetIds(group.section).input : undefined}
          >
            {group.section && <SectionHeader widget={group.section} />}
            <div className="form-section__body">{group.items.map(renderItem)}</div>
          </section>
        );
      })}
    </div>
  );
}
