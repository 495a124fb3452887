/**
 * Form translation (docs/decisions/043-form-translation.md): the names that identify each piece of
 * organisation-authored text, shared by the server (which looks the text up by name and never
 * translates text a client sends), the reporter's pages and the console's Translations tab.
 * Reporter pages load this module: keep it small and free of console-only code.
 */

export type TranslationFormat = "HTML" | "Text";

/** One translated text, as translateData answers it (spec: name, defaultText, format, originalText, translatedText). */
export interface TranslationItem {
  name: string;
  /** What the page shows when no translation is available: the text the client asked about, else the original. */
  defaultText: string;
  format: TranslationFormat;
  /** The organisation's own text, as the server holds it. */
  originalText: string;
  /** Null when the provider could not translate it: the page then shows the original. */
  translatedText: string | null;
}

/** A language a reporter may choose, named in itself ('Deutsch', 'français'). */
export interface TranslationLanguage {
  code: string;
  name: string;
}

/** What a reporter page receives inline when its organisation has translations on and a provider is set up. */
export interface ReporterTranslationSetup {
  /** The organisation's own language, listed first. */
  sourceLanguage: string;
  languages: TranslationLanguage[];
}

/** Where a reporter's choice lives: this tab only, gone with quick exit, logout or the tab. */
export const TRANSLATION_LANGUAGE_STORAGE_KEY = "lantern.language";

/** Organisation texts a reporter sees. */
export const ORGANISATION_TEXT_NAMES = {
  portalWelcomeMessageContent: "organisation.portalWelcomeMessageContent",
  generalEnquiryLabel: "organisation.generalEnquiryLabel",
  generalEnquiryWelcomeMessageContent: "organisation.generalEnquiryWelcomeMessageContent",
} as const;

/**
 * A form's name as the organisation page lists it (`organisation.form.{id}.name`): that page has no
 * form of its own, so each listed form's name is an organisation text named by the form's id.
 */
export const listedFormName = (formId: string): string => `organisation.form.${formId}.name`;

/** A form-level text: form.name, form.welcomeMessageContent and so on. */
export const formTextName = (field: string): string => `form.${field}`;

export type WidgetTextField = "title" | "tooltip" | "caption" | "pageName";
export const widgetTextName = (widgetId: string, field: WidgetTextField): string => `widget.${widgetId}.${field}`;
/** An option of a Select, Radio or Checkbox widget, by its position. */
export const widgetOptionName = (widgetId: string, index: number): string => `widget.${widgetId}.answer.${index}`;
