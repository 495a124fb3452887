import * as v from 'valibot';
import { CONDITION_MATCH_TYPES, WIDGET_TYPES } from '../../../../api/shared/enums';
import { FONT_FAMILIES } from '../organisation-data';

// The data the server injects into the report shell, and what
// `reportSubmissionForm` answers. Parsed rather than trusted, so a mismatch
// shows a message instead of a broken form. Optional texts arrive as null or
// missing; both read as ''.

const text = v.nullish(v.string(), '');
const flag = v.nullish(v.boolean(), false);

const widgetSchema = v.object({
  id: v.string(),
  type: v.picklist(WIDGET_TYPES),
  title: text,
  required: flag,
  tooltip: text,
  caption: text,
  answers: v.nullish(v.array(v.string()), []),
  pageName: v.nullish(v.string(), null),
  condition: v.nullish(
    v.object({
      id: v.string(),
      matchType: v.picklist(CONDITION_MATCH_TYPES),
      rules: v.array(v.object({ id: v.string(), conditionWidgetID: v.string(), conditionAnswer: v.string() })),
    }),
    null,
  ),
});

export const reporterFormSchema = v.object({
  id: v.string(),
  buildID: text,
  name: text,
  secured: flag,
  unlocked: flag,
  welcomeMessageTitle: text,
  welcomeMessageContent: text,
  finishMessageTitle: text,
  finishMessageContent: text,
  uploadFilesMessage: text,
  showImportantInfoMessage: flag,
  assignedToSupportMessage: text,
  allowFileUploads: flag,
  allowedFileTypes: v.nullish(v.array(v.string()), []),
  hasChat: flag,
  allowChatFileUploads: flag,
  showLogo: flag,
  theme: v.nullish(v.unknown(), null),
  widgets: v.nullish(v.array(widgetSchema), []),
});

const organisationSchema = v.object({
  id: v.string(),
  name: v.string(),
  slug: v.string(),
  logoUrl: v.nullish(v.string(), null),
  fontFamily: v.fallback(v.picklist(FONT_FAMILIES), 'Helvetica Neue'),
  showLogoOnReportForms: flag,
});

const pageSchema = v.union([
  v.object({ organisation: organisationSchema, form: reporterFormSchema }),
  v.object({ error: v.string() }),
]);

export type ReporterForm = v.InferOutput<typeof reporterFormSchema>;
export type ReportOrganisation = v.InferOutput<typeof organisationSchema>;
export type ReportFormPage = { organisation: ReportOrganisation; form: ReporterForm };

export const REPORT_FORM_NOT_FOUND = 'Report Form was not found or not longer exists.';

/** The injected page data, or the message to show instead of the form. */
export function parseReportFormPage(value: unknown): ReportFormPage | { error: string } {
  // An untouched placeholder means the server had no form to inject.
  if (value === null || value === undefined) return { error: REPORT_FORM_NOT_FOUND };
  const parsed = v.safeParse(pageSchema, value);
  if (!parsed.success) return { error: REPORT_FORM_NOT_FOUND };
  return parsed.output;
}

export function parseReporterForm(value: unknown): ReporterForm | undefined {
  const parsed = v.safeParse(reporterFormSchema, value);
  return parsed.success ? parsed.output : undefined;
}
