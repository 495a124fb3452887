import type { WidgetType } from '../../../../../api/shared/enums';
import { CHOICE_WIDGETS, DISPLAY_WIDGETS, type FormWidget, type WidgetCondition } from '../../../../../api/shared/form-definition';
import type { FormSettings } from './builder-api';

// The builder's state and every change to it, as one pure reducer: the page dispatches, the unit
// test replays. Widgets keep their server ids; new ones get a local id the server never sees.

export const DEFAULT_PAGE_NAME = 'New Page Name';
export const LOCAL_ID_PREFIX = 'new-';

export type BuilderState = {
  name: string;
  widgets: FormWidget[];
  /** Ids the server gave: only these are sent back as ids. */
  savedIds: readonly string[];
  settings: FormSettings;
  /** Set by any edit, cleared by a load (spec §4: a form is 'unsaved' after any edit). */
  dirty: boolean;
  /** Why the last move was refused, for the list to say. */
  refusal: string | null;
};

export type BuilderAction =
  | { type: 'load'; name: string; widgets: FormWidget[]; settings: FormSettings; fromServer: boolean }
  | { type: 'name'; name: string }
  | { type: 'settings'; patch: Partial<FormSettings> }
  | { type: 'add'; widgetType: WidgetType; pageBreak?: boolean; id?: string }
  | { type: 'update'; id: string; patch: Partial<Omit<FormWidget, 'id' | 'type' | 'condition'>> }
  | { type: 'condition'; id: string; condition: WidgetCondition | null }
  | { type: 'remove'; id: string }
  | { type: 'duplicate'; id: string }
  | { type: 'move'; from: number; to: number };

let sequence = 0;
/** A local id, unique in this page's life; matches the server's id pattern so previews can use it. */
export function localId(): string {
  sequence += 1;
  return `${LOCAL_ID_PREFIX}${Date.now().toString(36)}-${sequence}`;
}

export const TYPE_LABELS: Record<WidgetType, string> = {
  Section: 'Section',
  ShortText: 'Single Line',
  LongText: 'Multiline',
  Select: 'Select Options 1 choice',
  Radio: 'Multiple Options 1 choice',
  Checkbox: 'Multiple Options 1+ choices',
  Date: 'Date picker',
  Note: 'Note',
};

export function newWidget(type: WidgetType, widgets: readonly FormWidget[], pageBreak = false, id = localId()): FormWidget {
  const sections = widgets.filter((widget) => widget.type === 'Section').length;
  return {
    id,
    type,
    title: type === 'Section' ? `New Section #${sections + 1}` : '',
    required: false,
    tooltip: '',
    caption: '',
    answers: [],
    pageName: type === 'Section' && pageBreak ? DEFAULT_PAGE_NAME : null,
    condition: null,
  };
}

/** The widgets a rule of the widget at `index` may refer to: earlier questions (spec §5). */
export function conditionTargets(widgets: readonly FormWidget[], index: number): FormWidget[] {
  return widgets.slice(0, Math.max(index, 0)).filter((widget) => !DISPLAY_WIDGETS.has(widget.type));
}

/** Why moving a widget from `from` to `to` would break a condition, or null when it may move. */
export function moveProblem(widgets: readonly FormWidget[], from: number, to: number): string | null {
  const moved = arrayMove(widgets, from, to);
  for (const [index, widget] of moved.entries()) {
    for (const rule of widget.condition?.rules ?? []) {
      const target = moved.findIndex((candidate) => candidate.id === rule.conditionWidgetID);
      if (target >= index) {
        const dependent = widget.title || TYPE_LABELS[widget.type];
        const question = moved[target]?.title || 'its question';
        return `Cannot move there: the condition of "${dependent}" must refer to "${question}" above it.`;
      }
    }
  }
  return null;
}

export function arrayMove<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/** Removes the rules that referred to a widget that is gone or changed; an emptied condition goes too. */
function pruneConditions(widgets: FormWidget[]): FormWidget[] {
  return widgets.map((widget, index) => {
    if (!widget.condition) return widget;
    const targets = conditionTargets(widgets, index);
    const rules = widget.condition.rules.filter((rule) => {
      const target = targets.find((candidate) => candidate.id === rule.conditionWidgetID);
      return target !== undefined && (!CHOICE_WIDGETS.has(target.type) || target.answers.includes(rule.conditionAnswer));
    });
    if (rules.length === widget.condition.rules.length) return widget;
    return { ...widget, condition: rules.length > 0 ? { ...widget.condition, rules } : null };
  });
}

function edit(state: BuilderState, widgets: FormWidget[]): BuilderState {
  return { ...state, widgets, dirty: true, refusal: null };
}

export function builderReducer(state: BuilderState, action: BuilderAction): BuilderState {
  switch (action.type) {
    case 'load':
      return {
        name: action.name,
        // The server sends '' for a section that is no page break; here null says so, and '' is a break still to be named.
        widgets: action.widgets.map((widget) => (widget.pageName?.trim() ? widget : { ...widget, pageName: null })),
        savedIds: action.fromServer ? action.widgets.map((widget) => widget.id) : [],
        settings: action.settings,
        dirty: !action.fromServer,
        refusal: null,
      };
    case 'name':
      return { ...state, name: action.name, dirty: true };
    case 'settings':
      return { ...state, settings: { ...state.settings, ...action.patch }, dirty: true };
    case 'add':
      return edit(state, [...state.widgets, newWidget(action.widgetType, state.widgets, action.pageBreak, action.id)]);
    case 'update': {
      const widgets = state.widgets.map((widget) => (widget.id === action.id ? { ...widget, ...action.patch } : widget));
      return edit(state, 'answers' in action.patch ? pruneConditions(widgets) : widgets);
    }
    case 'condition':
      return edit(state, state.widgets.map((widget) => (widget.id === action.id ? { ...widget, condition: action.condition } : widget)));
    case 'remove':
      return edit(state, pruneConditions(state.widgets.filter((widget) => widget.id !== action.id)));
    case 'duplicate': {
      const index = state.widgets.findIndex((widget) => widget.id === action.id);
      const original = state.widgets[index];
      if (!original) return state;
      const condition = original.condition && { ...original.condition, id: localId(), rules: original.condition.rules.map((rule) => ({ ...rule, id: localId() })) };
      const copy: FormWidget = { ...original, id: localId(), answers: [...original.answers], condition };
      return edit(state, [...state.widgets.slice(0, index + 1), copy, ...state.widgets.slice(index + 1)]);
    }
    case 'move': {
      const { from, to } = action;
      if (from === to || from < 0 || to < 0 || from >= state.widgets.length || to >= state.widgets.length) return state;
      const refusal = moveProblem(state.widgets, from, to);
      if (refusal) return { ...state, refusal };
      return edit(state, arrayMove(state.widgets, from, to));
    }
  }
}
