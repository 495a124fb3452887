import { CONDITION_MATCH_TYPES, WIDGET_TYPES } from '../../../../api/shared/enums';
import type { FormWidget } from '../../../../api/shared/form-definition';
import { FONT_FAMILIES, type FontFamily } from '../organisation-display';

// The data the server injects into the report shell, and what `reportSubmissionForm` answers.
// Read rather than trusted, so a mismatch shows a message instead of a broken form. Optional texts
// arrive as null or missing; both read as ''. Read by hand, not with valibot: this runs before the
// first step can show, and valibot would be the largest part of the page's own code
// (docs/decisions/024-page-weight.md). Unknown keys are dropped, as a schema would.

/** A widget as the server's form definition has it (a type only: nothing of it reaches the bundle). */
export type ReporterWidget = FormWidget;

export type ReporterForm = {
  id: string;
  buildID: string;
  name: string;
  secured: boolean;
  unlocked: boolean;
  welcomeMessageTitle: string;
  welcomeMessageContent: string;
  finishMessageTitle: string;
  finishMessageContent: string;
  uploadFilesMessage: string;
  showImportantInfoMessage: boolean;
  assignedToSupportMessage: string;
  allowFileUploads: boolean;
  allowedFileTypes: string[];
  hasChat: boolean;
  allowChatFileUploads: boolean;
  showLogo: boolean;
  theme: unknown;
  widgets: ReporterWidget[];
};

export type ReportOrganisation = {
  id: string;
  name: string;
  slug: string;
  logoUrl: string | null;
  fontFamily: FontFamily;
  showLogoOnReportForms: boolean;
};
export type ReportFormPage = { organisation: ReportOrganisation; form: ReporterForm };

export const REPORT_FORM_NOT_FOUND = 'Report Form was not found or not longer exists.';

class Unreadable extends Error {}

function unreadable(): never {
  throw new Unreadable();
}

type Fields = Readonly<Record<string, unknown>>;

const record = (value: unknown): Fields => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : unreadable());
const string = (value: unknown): string => (typeof value === 'string' ? value : unreadable());
const missing = (value: unknown): value is null | undefined => value === null || value === undefined;
const text = (value: unknown): string => (missing(value) ? '' : string(value));
const flag = (value: unknown): boolean => (missing(value) ? false : typeof value === 'boolean' ? value : unreadable());
const list = <T,>(value: unknown, item: (entry: unknown) => T): T[] => (missing(value) ? [] : Array.isArray(value) ? value.map(item) : unreadable());
const oneOf = <T extends string>(options: readonly T[], value: unknown): T => (options.includes(value as T) ? (value as T) : unreadable());

function condition(value: unknown): ReporterWidget['condition'] {
  if (missing(value)) return null;
  const fields = record(value);
  const rule = (entry: unknown) => {
    const ruleFields = record(entry);
    return { id: string(ruleFields.id), conditionWidgetID: string(ruleFields.conditionWidgetID), conditionAnswer: string(ruleFields.conditionAnswer) };
  };
  if (!Array.isArray(fields.rules)) unreadable();
  return { id: string(fields.id), matchType: oneOf(CONDITION_MATCH_TYPES, fields.matchType), rules: fields.rules.map(rule) };
}

function widget(value: unknown): ReporterWidget {
  const fields = record(value);
  return {
    id: string(fields.id),
    type: oneOf(WIDGET_TYPES, fields.type),
    title: text(fields.title),
    required: flag(fields.required),
    tooltip: text(fields.tooltip),
    caption: text(fields.caption),
    answers: list(fields.answers, string),
    pageName: missing(fields.pageName) ? null : string(fields.pageName),
    condition: condition(fields.condition),
  };
}

function reporterForm(value: unknown): ReporterForm {
  const fields = record(value);
  return {
    id: string(fields.id),
    buildID: text(fields.buildID),
    name: text(fields.name),
    secured: flag(fields.secured),
    unlocked: flag(fields.unlocked),
    welcomeMessageTitle: text(fields.welcomeMessageTitle),
    welcomeMessageContent: text(fields.welcomeMessageContent),
    finishMessageTitle: text(fields.finishMessageTitle),
    finishMessageContent: text(fields.finishMessageContent),
    uploadFilesMessage: text(fields.uploadFilesMessage),
    showImportantInfoMessage: flag(fields.showImportantInfoMessage),
    assignedToSupportMessage: text(fields.assignedToSupportMessage),
    allowFileUploads: flag(fields.allowFileUploads),
    allowedFileTypes: list(fields.allowedFileTypes, string),
    hasChat: flag(fields.hasChat),
    allowChatFileUploads: flag(fields.allowChatFileUploads),
    showLogo: flag(fields.showLogo),
    theme: missing(fields.theme) ? null : fields.theme,
    widgets: list(fields.widgets, widget),
  };
}

function organisation(value: unknown): ReportOrganisation {
  const fields = record(value);
  return {
    id: string(fields.id),
    name: string(fields.name),
    slug: string(fields.slug),
    logoUrl: missing(fields.logoUrl) ? null : string(fields.logoUrl),
    // An unknown family must not break the page; the default is the spec's.
    fontFamily: FONT_FAMILIES.includes(fields.fontFamily as FontFamily) ? (fields.fontFamily as FontFamily) : 'Helvetica Neue',
    showLogoOnReportForms: flag(fields.showLogoOnReportForms),
  };
}

/** `read(value)`, or undefined when the value does not have the shape. */
function readOrUndefined<T>(read: (value: unknown) => T, value: unknown): T | undefined {
  try {
    return read(value);
  } catch (error) {
    if (error instanceof Unreadable) return undefined;
    throw error;
  }
}

/** The injected page data, or the message to show instead of the form. */
export function parseReportFormPage(value: unknown): ReportFormPage | { error: string } {
  // An untouched placeholder means the server had no form to inject.
  if (missing(value)) return { error: REPORT_FORM_NOT_FOUND };
  const page = readOrUndefined((raw) => ({ organisation: organisation(record(raw).organisation), form: reporterForm(record(raw).form) }), value);
  if (page) return page;
  const error = readOrUndefined((raw) => string(record(raw).error), value);
  return { error: error ?? REPORT_FORM_NOT_FOUND };
}

export function parseReporterForm(value: unknown): ReporterForm | undefined {
  return readOrUndefined(reporterForm, value);
}
