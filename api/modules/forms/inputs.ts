import { randomBytes } from "node:crypto";
import * as v from "valibot";
import { badInput } from "../../lib/errors.ts";
import { sanitiseRichText } from "../../lib/rich-text-sanitiser.ts";
import { parseWith } from "../../lib/validation.ts";
import { CONDITION_MATCH_TYPES, WIDGET_TYPES } from "../../shared/enums.ts";
import { ALLOWED_FILE_TYPES, CHOICE_WIDGETS, DISPLAY_WIDGETS, WIDGET_ID, widgetListProblems, type FormSettingsFields, type FormWidget } from "../../shared/form-definition.ts";
import { FORM_LIMITS, TEXT_LIMITS, type TextLimit } from "../../shared/limits.ts";
import { RICH_TEXT_MAX_LENGTH } from "../../shared/rich-text.ts";
import { HEX_COLOUR, THEME_KEYS, type FormTheme } from "../../shared/theme.ts";

/**
 * What a form or template save may carry, checked before anything is written: every text bounded,
 * widgets within the builder's rules (api/shared/form-definition.ts), theme colours hex only,
 * messages rebuilt from the rich-text allowlist (decision 020 lists the bounds).
 */

export const REQUIRED = "Required";
export const PASSWORD_REQUIRED = "Password is required";

const text = (bound: TextLimit) => v.pipe(v.string(), v.trim(), v.maxLength(bound.max, bound.tooLong));
const requiredText = (bound: TextLimit) => v.pipe(v.string(REQUIRED), v.trim(), v.nonEmpty(REQUIRED), v.maxLength(bound.max, bound.tooLong));

const RuleInput = v.pipe(
  v.object({
    conditionWidgetID: v.nullish(v.pipe(v.string(), v.regex(WIDGET_ID, "Conditions must refer to a real widget"))),
    conditionWidgetIndex: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(0, "Conditions must refer to a real widget"))),
    conditionAnswer: requiredText(FORM_LIMITS.option),
  }),
  v.check((rule) => (rule.conditionWidgetID == null) !== (rule.conditionWidgetIndex == null), "Each rule names its widget either by id or by position"),
);

const WidgetInput = v.object({
  id: v.nullish(v.pipe(v.string(), v.regex(WIDGET_ID, "Widget ids may only hold letters, digits, '-' and '_', at most 64"))),
  type: v.picklist(WIDGET_TYPES, "Unknown widget type"),
  title: requiredText(FORM_LIMITS.widgetTitle),
  required: v.nullish(v.boolean()),
  tooltip: v.nullish(text(FORM_LIMITS.widgetText)),
  caption: v.nullish(text(FORM_LIMITS.widgetText)),
  answers: v.nullish(
    v.pipe(
      v.array(requiredText(FORM_LIMITS.option)),
      v.maxLength(FORM_LIMITS.optionsPerWidget, `A widget can have at most ${FORM_LIMITS.optionsPerWidget} options`),
      v.check((options) => new Set(options).size === options.length, "Options must be unique"),
    ),
  ),
  pageName: v.nullish(text(FORM_LIMITS.pageName)),
  condition: v.nullish(
    v.object({
      matchType: v.picklist(CONDITION_MATCH_TYPES, "Unknown match type"),
      rules: v.pipe(v.array(RuleInput), v.maxLength(FORM_LIMITS.rulesPerCondition, `A condition can have at most ${FORM_LIMITS.rulesPerCondition} rules`)),
    }),
  ),
});

const WidgetList = v.pipe(v.array(WidgetInput), v.maxLength(FORM_LIMITS.widgets, `A form can have at most ${FORM_LIMITS.widgets} widgets`));

type WidgetInputValue = v.InferOutput<typeof WidgetInput>;

/** A fresh id for a widget, condition or rule: 16 random bytes, URL-safe, within WIDGET_ID. */
export const newWidgetId = () => randomBytes(16).toString("base64url");

/**
 * The submitted widgets as stored: new ones get ids, rules given by position get the id of the
 * widget at that position, fields a type does not use are dropped. Then the builder's rules.
 */
export function resolveWidgets(inputs: readonly WidgetInputValue[]): FormWidget[] {
  const ids = inputs.map((input) => input.id ?? newWidgetId());
  const widgets = inputs.map((input, index): FormWidget => {
    const rules = (input.condition?.rules ?? []).map((rule) => {
      const position = rule.conditionWidgetIndex;
      // A position at or after the widget itself can never be an earlier question.
      const target = position != null ? (position < index ? ids[position]! : "") : rule.conditionWidgetID!;
      return { id: newWidgetId(), conditionWidgetID: target, conditionAnswer: rule.conditionAnswer };
    });
    const choice = CHOICE_WIDGETS.has(input.type);
    return {
      id: ids[index]!,
      type: input.type,
      title: input.title,
      required: !DISPLAY_WIDGETS.has(input.type) && (input.required ?? false),
      tooltip: input.tooltip ?? "",
      caption: input.caption ?? "",
      answers: choice ? (input.answers ?? []) : [],
      pageName: input.type === "Section" && input.pageName ? input.pageName : null,
      condition: input.condition && rules.length > 0 ? { id: newWidgetId(), matchType: input.condition.matchType, rules } : null,
    };
  });
  const problems = widgetListProblems(widgets);
  if (problems.length > 0) throw badInput(problems[0]!, problems.map((message) => ({ field: "widgets", message })));
  return widgets;
}

const ThemeInput = v.strictObject(
  Object.fromEntries(THEME_KEYS.map((key) => [key, v.nullish(v.union([v.literal(""), v.pipe(v.string(), v.regex(HEX_COLOUR, "Colours must be hex, like #1a2b3c"))], "Colours must be hex, like #1a2b3c"))])),
  "Unknown theme colour",
);

/** Only the set colours: '' and null fall back to the palette. */
function cleanTheme(theme: Record<string, string | null | undefined>): FormTheme {
  return Object.fromEntries(Object.entries(theme).filter((entry): entry is [string, string] => Boolean(entry[1])));
}

const richText = v.pipe(
  v.string(),
  v.maxLength(FORM_LIMITS.messageHtml.max, FORM_LIMITS.messageHtml.tooLong),
  v.transform(sanitiseRichText),
  v.maxLength(RICH_TEXT_MAX_LENGTH, FORM_LIMITS.messageHtml.tooLong),
);

const FormInput = v.object({
  organisationID: v.nullish(v.string()),
  name: requiredText(FORM_LIMITS.formName),
  theme: v.nullish(ThemeInput),
  widgets: WidgetList,
  locked: v.nullish(v.boolean()),
  welcomeMessageTitle: v.nullish(text(FORM_LIMITS.messageTitle)),
  welcomeMessageContent: v.nullish(richText),
  finishMessageTitle: v.nullish(text(FORM_LIMITS.messageTitle)),
  finishMessageContent: v.nullish(richText),
  uploadFilesMessage: v.nullish(richText),
  assignedToSupportMessage: v.nullish(richText),
  reportClosedMessage: v.nullish(richText),
  // Plain text: it becomes a chat message, and chat messages are plain (decision 051).
  acknowledgementMessage: v.nullish(v.pipe(v.string(), v.trim(), v.maxLength(TEXT_LIMITS.acknowledgementMessage.max, TEXT_LIMITS.acknowledgementMessage.tooLong))),
  showImportantInfoMessage: v.nullish(v.boolean()),
  showLogo: v.nullish(v.boolean()),
  hasChat: v.nullish(v.boolean()),
  allowFileUploads: v.nullish(v.boolean()),
  allowChatFileUploads: v.nullish(v.boolean()),
  allowedFileTypes: v.nullish(
    v.pipe(
      v.array(v.picklist(ALLOWED_FILE_TYPES, `Allowed file types are ${ALLOWED_FILE_TYPES.join(" ")}`)),
      v.transform((types) => ALLOWED_FILE_TYPES.filter((type) => types.includes(type))),
    ),
  ),
  secure: v.nullish(v.boolean()),
  password: v.nullish(v.pipe(v.string(), v.maxLength(FORM_LIMITS.password.max, FORM_LIMITS.password.tooLong))),
  baseRevision: v.nullish(v.pipe(v.number(), v.integer())),
});

/** A form's settings as a save writes them: only what was given, so an omitted field keeps its value. */
export interface FormSave {
  organisationID: string | null;
  name: string;
  widgets: FormWidget[];
  locked: boolean | null;
  /** true: the form needs a password (a new one, or the one it has); false: clear it; null: as given by `password`. */
  secure: boolean | null;
  /** A new password to set, if any. */
  password: string | null;
  baseRevision: number | null;
  settings: Partial<FormSettingsFields>;
}

/** Checks a ReportFormInput: nothing is written until all of it passes. */
export function parseFormInput(raw: unknown): FormSave {
  const input = parseWith(FormInput, raw);
  const { organisationID, name, widgets, locked, secure, password, baseRevision, theme, ...rest } = input;
  const settings: FormSave["settings"] = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined && value !== null));
  if (theme) settings.theme = cleanTheme(theme as Record<string, string | null | undefined>);
  return {
    organisationID: organisationID ?? null,
    name,
    widgets: resolveWidgets(widgets),
    locked: locked ?? null,
    secure: secure ?? null,
    password: password || null,
    baseRevision: baseRevision ?? null,
    settings,
  };
}

/**
 * The password hash a save leaves: secure false clears it, a new password (already hashed) sets
 * it, secure true without one keeps the current one, and needs there to be one.
 */
export function pinHashAfter(current: string | null, secure: boolean | null, newHash: string | null): string | null {
  if (secure === false) return null;
  if (newHash) return newHash;
  if (secure === true && !current) throw badInput(PASSWORD_REQUIRED, [{ field: "password", message: PASSWORD_REQUIRED }]);
  return current;
}

/** reportFormSecure's password: non-empty sets, null clears, '' is a mistake. */
export function parseSecurePassword(raw: unknown): string | null {
  if (raw === null || raw === undefined) return null;
  const { password } = parseWith(v.object({ password: v.pipe(v.string(), v.nonEmpty(PASSWORD_REQUIRED), v.maxLength(FORM_LIMITS.password.max, FORM_LIMITS.password.tooLong)) }), { password: raw });
  return password;
}

const TemplateInput = v.object({ name: requiredText(FORM_LIMITS.formName), widgets: WidgetList, baseRevision: v.nullish(v.pipe(v.number(), v.integer())) });

export function parseTemplateInput(raw: unknown): { name: string; widgets: FormWidget[]; baseRevision: number | null } {
  const input = parseWith(TemplateInput, raw);
  return { name: input.name, widgets: resolveWidgets(input.widgets), baseRevision: input.baseRevision ?? null };
}
