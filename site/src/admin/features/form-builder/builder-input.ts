import { DEFAULT_ACKNOWLEDGEMENT_MESSAGE, type FormWidget } from '../../../../../api/shared/form-definition';
import { THEME_KEYS, type FormTheme } from '../../../../../api/shared/theme';
import { FILE_TYPES, PASSWORD_REQUIRED, REQUIRED, type FormSettings, type Loaded, type LoadedForm } from './builder-api';
import type { BuilderAction, BuilderState } from './builder-store';

// Between the server's shapes and the builder's state: what a load fills in and what a save sends.

export const NEW_FORM_SETTINGS: FormSettings = {
  welcomeMessageTitle: 'Welcome',
  welcomeMessageContent: '',
  finishMessageTitle: '',
  finishMessageContent: '',
  uploadFilesMessage: '',
  assignedToSupportMessage: '',
  reportClosedMessage: '',
  // New forms acknowledge reports out of the box; forms saved before the setting existed stay silent.
  acknowledgementMessage: DEFAULT_ACKNOWLEDGEMENT_MESSAGE,
  showImportantInfoMessage: false,
  showLogo: true,
  hasChat: true,
  allowFileUploads: true,
  allowChatFileUploads: true,
  allowedFileTypes: [...FILE_TYPES],
  theme: {},
  secure: false,
  password: '',
  locked: false,
};

export function settingsOf(form: LoadedForm): FormSettings {
  const theme: FormTheme = {};
  // By the known keys only: the answer also carries the client's __typename.
  for (const key of THEME_KEYS) if (form.theme[key]) theme[key] = form.theme[key];
  return {
    welcomeMessageTitle: form.welcomeMessageTitle,
    welcomeMessageContent: form.welcomeMessageContent,
    finishMessageTitle: form.finishMessageTitle,
    finishMessageContent: form.finishMessageContent,
    uploadFilesMessage: form.uploadFilesMessage,
    assignedToSupportMessage: form.assignedToSupportMessage,
    reportClosedMessage: form.reportClosedMessage,
    acknowledgementMessage: form.acknowledgementMessage,
    showImportantInfoMessage: form.showImportantInfoMessage,
    showLogo: form.showLogo,
    hasChat: form.hasChat,
    allowFileUploads: form.allowFileUploads,
    allowChatFileUploads: form.allowChatFileUploads,
    allowedFileTypes: form.allowedFileTypes,
    theme,
    secure: form.secured,
    password: '',
    locked: form.locked,
  };
}

/** The state a loaded or saved form or template starts the editor in. */
export function loadAction(loaded: Loaded): BuilderAction {
  const source = loaded.kind === 'form' ? loaded.form : loaded.template;
  const settings = loaded.kind === 'form' ? settingsOf(loaded.form) : NEW_FORM_SETTINGS;
  return { type: 'load', name: source.name, widgets: source.currentBuild?.widgets ?? [], settings, fromServer: true };
}

/** A template's widgets under fresh local ids, their conditions pointing at the copies. */
export function copyWidgets(widgets: readonly FormWidget[], makeId: () => string): FormWidget[] {
  const ids = new Map(widgets.map((widget) => [widget.id, makeId()]));
  return widgets.map((widget) => ({
    ...widget,
    id: ids.get(widget.id)!,
    condition: widget.condition && {
      ...widget.condition,
      id: makeId(),
      rules: widget.condition.rules.map((rule) => ({ ...rule, id: makeId(), conditionWidgetID: ids.get(rule.conditionWidgetID) ?? rule.conditionWidgetID })),
    },
  }));
}

/**
 * The widget list as ReportFormWidgetInput. Rules name their question by position, which holds for
 * new widgets (no server id yet) and saved ones alike.
 */
export function widgetsInput(state: Pick<BuilderState, 'widgets' | 'savedIds'>) {
  const positions = new Map(state.widgets.map((widget, index) => [widget.id, index]));
  return state.widgets.map((widget) => ({
    ...(state.savedIds.includes(widget.id) ? { id: widget.id } : {}),
    type: widget.type,
    title: widget.title.trim(),
    required: widget.required,
    tooltip: widget.tooltip,
    caption: widget.caption,
    answers: widget.answers,
    pageName: widget.type === 'Section' ? (widget.pageName ?? '') : null,
    condition: widget.condition && {
      matchType: widget.condition.matchType,
      rules: widget.condition.rules.map((rule) => ({ conditionWidgetIndex: positions.get(rule.conditionWidgetID) ?? -1, conditionAnswer: rule.conditionAnswer })),
    },
  }));
}

export function formInput(state: BuilderState, extra: { organisationID?: string; baseRevision?: number }) {
  const { secure, password, theme, ...rest } = state.settings;
  return {
    ...extra,
    ...rest,
    name: state.name.trim(),
    widgets: widgetsInput(state),
    theme,
    secure,
    // An already secured form may stay so without a new password: the server keeps the one it has.
    ...(secure && password !== '' ? { password } : {}),
  };
}

/** The problems the builder can tell before sending (spec §5): by field id, '' for the list itself. */
export function clientProblems(state: BuilderState, wasSecured: boolean, kind: 'form' | 'template'): Record<string, string> {
  const problems: Record<string, string> = {};
  if (state.name.trim() === '') problems['builder-name'] = REQUIRED;
  for (const widget of state.widgets) {
    if (widget.title.trim() === '') problems[`widget-${widget.id}-title`] = REQUIRED;
    if (widget.type === 'Section' && widget.pageName !== null && widget.pageName.trim() === '') problems[`widget-${widget.id}-page`] = REQUIRED;
    if (['Select', 'Radio', 'Checkbox'].includes(widget.type) && widget.answers.length === 0) problems[`widget-${widget.id}-options`] = REQUIRED;
  }
  if (kind === 'form' && state.settings.secure && !wasSecured && state.settings.password === '') problems['builder-password'] = PASSWORD_REQUIRED;
  return problems;
}
