import type { ConditionMatchType, WidgetType } from "./enums.ts";
import { TEXT_LIMITS } from "./limits.ts";
import type { FormTheme } from "./theme.ts";

/**
 * The one form definition: the builder edits it, the reporter's renderer draws it, and the server
 * validates answers against it. Pure functions only, so every side computes the same thing.
 */

export interface ConditionRule {
  id: string;
  conditionWidgetID: string;
  conditionAnswer: string;
}

export interface WidgetCondition {
  id: string;
  matchType: ConditionMatchType;
  rules: ConditionRule[];
}

export interface FormWidget {
  id: string;
  type: WidgetType;
  title: string;
  required: boolean;
  tooltip: string;
  caption: string;
  /** Options of Select, Radio and Checkbox widgets. */
  answers: string[];
  /** Section widgets only: a non-empty page name starts a new page (a page break). */
  pageName: string | null;
  condition: WidgetCondition | null;
}

export interface FormPage {
  index: number;
  /** The first page is always 'Summary'; later pages take their first section's page name. */
  name: string;
  widgets: FormWidget[];
}

/** Answers by widget id; every answer is a list (one entry for single-value widgets). */
export type AnswerMap = Readonly<Record<string, readonly string[]>>;

export const CHOICE_WIDGETS: ReadonlySet<WidgetType> = new Set(["Select", "Radio", "Checkbox"]);
/** Widgets that take no answer. */
export const DISPLAY_WIDGETS: ReadonlySet<WidgetType> = new Set(["Section", "Note"]);

export const FIRST_PAGE_NAME = "Summary";

/** What a widget id may look like: the builder's own ids and the server's generated ones alike. */
export const WIDGET_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The file types a form may accept as attachments (spec section 5), in the spec's order. */
export const ALLOWED_FILE_TYPES = [".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".pdf", ".png", ".jpg", ".jpeg", ".gif", ".txt", ".mp4", ".mp3", ".m4a", ".mov"] as const;

export function derivePages(widgets: readonly FormWidget[]): FormPage[] {
  const pages: FormPage[] = [];
  for (const widget of widgets) {
    const breaks = widget.type === "Section" && (pages.length === 0 || Boolean(widget.pageName?.trim()));
    if (breaks || pages.length === 0) {
      const index = pages.length;
      pages.push({ index, name: index === 0 ? FIRST_PAGE_NAME : widget.pageName!.trim(), widgets: [] });
    }
    pages.at(-1)!.widgets.push(widget);
  }
  return pages;
}

function ruleMet(rule: ConditionRule, answers: AnswerMap): boolean {
  return (answers[rule.conditionWidgetID] ?? []).includes(rule.conditionAnswer);
}

export function conditionHolds(condition: WidgetCondition | null, answers: AnswerMap): boolean {
  if (!condition || condition.rules.length === 0) return true;
  return condition.matchType === "All" ? condition.rules.every((rule) => ruleMet(rule, answers)) : condition.rules.some((rule) => ruleMet(rule, answers));
}

/**
 * Ids of the widgets a reporter sees for these answers. Evaluated in form order: a widget inside a
 * hidden section is hidden, and a hidden widget's answer counts as not given, so conditions cascade.
 */
export function visibleWidgetIds(widgets: readonly FormWidget[], answers: AnswerMap): Set<string> {
  const visible = new Set<string>();
  const effective: Record<string, readonly string[]> = {};
  let sectionVisible = true;
  for (const widget of widgets) {
    const own = conditionHolds(widget.condition, effective);
    if (widget.type === "Section") sectionVisible = own;
    const shown = widget.type === "Section" ? own : sectionVisible && own;
    if (!shown) continue;
    visible.add(widget.id);
    const answer = answers[widget.id];
    if (answer) effective[widget.id] = answer;
  }
  return visible;
}

/** A page is skipped when nothing but its section headers would show. */
export function pageHasContent(page: FormPage, visible: ReadonlySet<string>): boolean {
  return page.widgets.some((widget) => widget.type !== "Section" && visible.has(widget.id));
}

export const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** YYYY-MM-DD shown as dd/MM/yyyy. */
export function displayDate(iso: string): string {
  const match = DATE_PATTERN.exec(iso);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : iso;
}

export const MAX_TEXT_ANSWER_LENGTH = TEXT_LIMITS.answer.max;
export const REQUIRED_MESSAGE = "Required";

export interface AnswerProblem {
  widgetId: string;
  message: string;
}

/**
 * Checks the answers given to one page's visible widgets: required ones present (a checkbox group
 * needs one ticked), options among the widget's own, dates real, texts bounded. Returns the answers
 * to keep: blank ones are not stored.
 */
export function checkPageAnswers(widgets: readonly FormWidget[], visible: ReadonlySet<string>, answers: AnswerMap): { kept: Record<string, string[]>; problems: AnswerProblem[] } {
  const kept: Record<string, string[]> = {};
  const problems: AnswerProblem[] = [];
  for (const widget of widgets) {
    if (DISPLAY_WIDGETS.has(widget.type) || !visible.has(widget.id)) continue;
    const values = (answers[widget.id] ?? []).map((value) => value.trim()).filter((value) => value !== "");
    if (values.length === 0) {
      if (widget.required) problems.push({ widgetId: widget.id, message: REQUIRED_MESSAGE });
      continue;
    }
    const problem = valueProblem(widget, values);
    if (problem) problems.push({ widgetId: widget.id, message: problem });
    else kept[widget.id] = widget.type === "Checkbox" ? widget.answers.filter((option) => values.includes(option)) : values;
  }
  return { kept, problems };
}

function valueProblem(widget: FormWidget, values: string[]): string | null {
  if (widget.type !== "Checkbox" && values.length > 1) return "Only one answer is allowed";
  if (CHOICE_WIDGETS.has(widget.type) && values.some((value) => !widget.answers.includes(value))) return "Choose one of the options";
  if (widget.type === "Checkbox" && new Set(values).size !== values.length) return "Each option can be ticked once";
  if (widget.type === "Date" && !isIsoDate(values[0]!)) return "Enter a valid date";
  if (values.some((value) => value.length > MAX_TEXT_ANSWER_LENGTH)) return `Answers can be at most ${MAX_TEXT_ANSWER_LENGTH} characters`;
  return null;
}

/** The builder's rules for a widget list (spec section 5). Returns the problems found. */
export function widgetListProblems(widgets: readonly FormWidget[]): string[] {
  const problems: string[] = [];
  if (widgets.length < 2) problems.push("A form needs at least two widgets");
  if (widgets.at(-1)?.type === "Section") problems.push("The last widget cannot be a section");
  if (new Set(widgets.map((widget) => widget.id)).size !== widgets.length) problems.push("Widget ids must be unique");
  widgets.forEach((widget, index) => {
    if (widget.type === "Section" && widgets[index - 1]?.type === "Section") problems.push("Two sections cannot be next to each other");
    if (CHOICE_WIDGETS.has(widget.type) && widget.answers.length === 0) problems.push(`"${widget.title}" needs options`);
    for (const rule of widget.condition?.rules ?? []) {
      const target = widgets.slice(0, index).find((earlier) => earlier.id === rule.conditionWidgetID);
      if (!target || DISPLAY_WIDGETS.has(target.type)) problems.push(`"${widget.title}": the condition must refer to an earlier question`);
      else if (CHOICE_WIDGETS.has(target.type) && !target.answers.includes(rule.conditionAnswer)) problems.push(`"${widget.title}": "${rule.conditionAnswer}" is not an option of "${target.title}"`);
    }
  });
  return [...new Set(problems)];
}

/** Publishing also needs at least one section and one question. */
export function publishProblems(widgets: readonly FormWidget[]): string[] {
  const problems = widgetListProblems(widgets);
  if (!widgets.some((widget) => widget.type === "Section")) problems.push("Add at least one section before publishing");
  if (!widgets.some((widget) => !DISPLAY_WIDGETS.has(widget.type))) problems.push("Add at least one question before publishing");
  return problems;
}

export interface AnsweredPage {
  name: string;
  answers: { widgetID: string; title: string; type: WidgetType; answer: string[] }[];
}

/**
 * Stored answers grouped by the page they were given on, as both the reporter and staff read a
 * report: questions without an answer and pages without any are left out.
 */
export function answeredPages(pages: readonly FormPage[], answers: Readonly<Record<string, string[]>>): AnsweredPage[] {
  return pages
    .map((page) => ({
      name: page.name,
      answers: page.widgets
        .filter((widget) => !DISPLAY_WIDGETS.has(widget.type) && answers[widget.id])
        .map((widget) => ({ widgetID: widget.id, title: widget.title, type: widget.type, answer: answers[widget.id]! })),
    }))
    .filter((page) => page.answers.length > 0);
}

/** What a new form's builder starts with as its automatic acknowledgement (decision 051). */
export const DEFAULT_ACKNOWLEDGEMENT_MESSAGE =
  "Thank you for your report. We have received it and will look at it within 7 days. You can follow up here using your report ID and password.";

/** A report form's messages, flags, upload types and theme: what the builder edits and the server saves besides name and widgets. */
export interface FormSettingsFields {
  theme: FormTheme;
  welcomeMessageTitle: string;
  welcomeMessageContent: string;
  finishMessageTitle: string;
  finishMessageContent: string;
  uploadFilesMessage: string;
  assignedToSupportMessage: string;
  reportClosedMessage: string;
  /** Plain text sent into the reporter's chat when the report is completed; empty sends none (decision 051). */
  acknowledgementMessage: string;
  showImportantInfoMessage: boolean;
  showLogo: boolean;
  hasChat: boolean;
  allowFileUploads: boolean;
  allowChatFileUploads: boolean;
  allowedFileTypes: string[];
}
