import type { FormSettingsFields, FormWidget } from "../../shared/form-definition.ts";
import { CHOICE_WIDGETS } from "../../shared/form-definition.ts";
import {
  formTextName,
  listedFormName,
  ORGANISATION_TEXT_NAMES,
  type TranslationFormat,
  widgetOptionName,
  widgetTextName,
  type WidgetTextField,
} from "../../shared/translation.ts";

/**
 * Every piece of organisation-authored text a reporter can see, by name: the only texts Lantern
 * ever sends to a translation provider. Clients name what they want; the text itself always comes
 * from here, so nothing a reporter typed can reach a provider through translateData.
 */
export interface TranslationSource {
  name: string;
  format: TranslationFormat;
  text: string;
  /** Where the text sits, for staff reviewing translations: 'Welcome message', 'Question 3 · Tooltip'. */
  label: string;
  /** The form whose reviewed translations (form_translation_overrides) may stand for this text, under `name`. */
  reviewedAs?: { formId: string; name: string };
}

/** The organisation texts its public page and enquiry dialog show. */
export interface OrganisationTexts {
  portalWelcomeMessageEnabled: boolean;
  portalWelcomeMessageContent: string;
  generalEnquiryEnabled: boolean;
  generalEnquiryLabel: string;
  generalEnquiryWelcomeMessageContent: string;
}

/** The form texts a reporter's steps show (welcome, upload, finish and follow-up messages). */
export type FormTexts = { name: string } & Pick<
  FormSettingsFields,
  "welcomeMessageTitle" | "welcomeMessageContent" | "finishMessageTitle" | "finishMessageContent" | "uploadFilesMessage" | "assignedToSupportMessage" | "reportClosedMessage"
>;

const FORM_FIELDS: readonly { field: keyof FormTexts; format: TranslationFormat; label: string }[] = [
  { field: "name", format: "Text", label: "Form name" },
  { field: "welcomeMessageTitle", format: "Text", label: "Welcome message title" },
  { field: "welcomeMessageContent", format: "HTML", label: "Welcome message" },
  { field: "uploadFilesMessage", format: "HTML", label: "Upload files message" },
  { field: "finishMessageTitle", format: "Text", label: "Finish message title" },
  { field: "finishMessageContent", format: "HTML", label: "Finish message" },
  { field: "assignedToSupportMessage", format: "HTML", label: "Assigned to support message" },
  { field: "reportClosedMessage", format: "HTML", label: "Report closed message" },
];

const WIDGET_FIELDS: readonly { field: WidgetTextField; label: string }[] = [
  { field: "pageName", label: "Page name" },
  { field: "title", label: "Title" },
  { field: "tooltip", label: "Tooltip" },
  { field: "caption", label: "Caption" },
];

/** Blank texts are shown as nothing in every language: never sent, never listed. */
const present = (text: string | null | undefined): text is string => typeof text === "string" && text.trim() !== "";

export function organisationSources(organisation: OrganisationTexts): TranslationSource[] {
  const sources: TranslationSource[] = [];
  if (organisation.portalWelcomeMessageEnabled && present(organisation.portalWelcomeMessageContent)) {
    sources.push({ name: ORGANISATION_TEXT_NAMES.portalWelcomeMessageContent, format: "HTML", text: organisation.portalWelcomeMessageContent, label: "Welcome message" });
  }
  if (organisation.generalEnquiryEnabled) {
    if (present(organisation.generalEnquiryLabel)) sources.push({ name: ORGANISATION_TEXT_NAMES.generalEnquiryLabel, format: "Text", text: organisation.generalEnquiryLabel, label: "Enquiry button" });
    if (present(organisation.generalEnquiryWelcomeMessageContent)) {
      sources.push({ name: ORGANISATION_TEXT_NAMES.generalEnquiryWelcomeMessageContent, format: "HTML", text: organisation.generalEnquiryWelcomeMessageContent, label: "Enquiry welcome message" });
    }
  }
  return sources;
}

/**
 * The names of the forms the organisation page lists. Each is the same text as that form's own
 * `form.name`, so a translation staff reviewed for the form stands for it here too.
 */
export function listedFormSources(forms: readonly { id: string; name: string }[]): TranslationSource[] {
  return forms
    .filter((form) => present(form.name))
    .map((form) => ({ name: listedFormName(form.id), format: "Text", text: form.name, label: "Form name", reviewedAs: { formId: form.id, name: formTextName("name") } }));
}

/** A form's own texts and, when given, its widgets' (omit them while a secured form is still locked). */
export function formSources(form: FormTexts, widgets: readonly FormWidget[]): TranslationSource[] {
  const sources: TranslationSource[] = [];
  for (const { field, format, label } of FORM_FIELDS) {
    if (present(form[field])) sources.push({ name: formTextName(field), format, text: form[field], label });
  }
  widgets.forEach((widget, position) => {
    const where = `${widget.type === "Section" ? "Section" : widget.type === "Note" ? "Note" : "Question"} ${position + 1}`;
    for (const { field, label } of WIDGET_FIELDS) {
      const text = widget[field];
      if (present(text)) sources.push({ name: widgetTextName(widget.id, field), format: "Text", text, label: `${where} · ${label}` });
    }
    if (CHOICE_WIDGETS.has(widget.type)) {
      widget.answers.forEach((option, index) => {
        if (present(option)) sources.push({ name: widgetOptionName(widget.id, index), format: "Text", text: option, label: `${where} · Option ${index + 1}` });
      });
    }
  });
  return sources;
}
