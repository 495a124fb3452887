import { formTextName, listedFormName, ORGANISATION_TEXT_NAMES, widgetOptionName, widgetTextName, type WidgetTextField } from '../../../api/shared/translation';
import type { DisplayWidget, Translatable, TranslatedText } from '../forms/translated-text';
import type { ReporterForm } from '../islands/report-flow/report-data';
import { graphqlRequest } from './graphql';
import { textDirection } from './reporter-language';

// Fetching and applying translations on reporter pages, loaded only when a reporter reads a language other
// than the organisation's (docs/decisions/044-reporter-language-menu.md). The server looks every text up by
// name, so nothing the reporter typed is ever part of the request.

/** Translations by item name; null for a text the provider could not translate. */
export type Translations = ReadonlyMap<string, string | null>;

const TRANSLATE_DATA = `query ReporterTranslations($input: TranslateDataInput!, $lang: String!) {
  translateData(input: $input, lang: $lang) { list { name translatedText } }
}`;

/**
 * The organisation's texts (and the form's, when given) in `lang`: every one, or only those `items`
 * names. Null when the call failed.
 */
export async function fetchTranslations(lang: string, organisationID: string, reportFormID?: string, items?: readonly string[]): Promise<Translations | null> {
  try {
    const input = { organisationID, reportFormID: reportFormID ?? null, items: items ? items.map((name) => ({ name })) : null };
    const result = await graphqlRequest(TRANSLATE_DATA, { lang, input });
    if (!result.ok) return null;
    const list: unknown = (result.data as { translateData?: { list?: unknown } }).translateData?.list;
    if (!Array.isArray(list)) return null;
    const entries = list
      .filter((item): item is { name: string; translatedText: unknown } => typeof item?.name === 'string')
      .map((item): [string, string | null] => [item.name, typeof item.translatedText === 'string' ? item.translatedText : null]);
    return new Map(entries);
  } catch {
    return null;
  }
}

/**
 * Applies translations to texts: each text becomes its translation, or stays the original when there is
 * none. `missing` tells the page to say so; `translated` which names were replaced (for their `lang`).
 */
export class TextTranslator {
  missing = false;
  readonly translated = new Set<string>();
  readonly attributes: TranslatedText;

  constructor(
    private readonly translations: Translations,
    lang: string,
  ) {
    this.attributes = { lang, dir: textDirection(lang) };
  }

  text(name: string, original: string): string {
    if (original.trim() === '') return original;
    const translation = this.translations.get(name);
    if (typeof translation === 'string' && translation.trim() !== '') {
      this.translated.add(name);
      return translation;
    }
    this.missing = true;
    return original;
  }

  /** The translation's language when one of these names was translated; undefined when all stayed the original. */
  languageOf(...names: string[]): TranslatedText | undefined {
    return names.some((name) => this.translated.has(name)) ? this.attributes : undefined;
  }
}

const WIDGET_FIELDS = ['title', 'tooltip', 'caption'] as const satisfies readonly WidgetTextField[];

function translateWidget(widget: DisplayWidget, translator: TextTranslator): DisplayWidget {
  const translated: DisplayWidget = { ...widget };
  for (const field of WIDGET_FIELDS) translated[field] = translator.text(widgetTextName(widget.id, field), widget[field]);
  const { pageName } = widget;
  if (pageName) translated.pageName = translator.text(widgetTextName(widget.id, 'pageName'), pageName);
  // `answers` stay the organisation's texts: the stored values, and what conditions compare against.
  if (widget.answers.length > 0) translated.optionLabels = widget.answers.map((option, index) => translator.text(widgetOptionName(widget.id, index), option));
  translated.translatedIn = translator.languageOf(widgetTextName(widget.id, 'title'), widgetTextName(widget.id, 'caption'));
  return translated;
}

const FORM_FIELDS = [
  'name',
  'welcomeMessageTitle',
  'welcomeMessageContent',
  'uploadFilesMessage',
  'finishMessageTitle',
  'finishMessageContent',
  'assignedToSupportMessage',
] as const;

/** A form as the reporter reads it in `lang`, and whether some text had to stay in the original. */
export type TranslatedForm = ReporterForm & Translatable & { widgets: DisplayWidget[] };

export function translateForm(form: ReporterForm, translations: Translations, lang: string): { form: TranslatedForm; missing: boolean } {
  const translator = new TextTranslator(translations, lang);
  const translated: TranslatedForm = { ...form, widgets: form.widgets.map((widget) => translateWidget(widget, translator)) };
  for (const field of FORM_FIELDS) translated[field] = translator.text(formTextName(field), form[field]);
  translated.translatedIn = translator.languageOf(...FORM_FIELDS.map(formTextName));
  return { form: translated, missing: translator.missing };
}

/** A text as shown: its translation (marked with its language) or the original (unmarked). */
export type ShownText = { text: string; translatedIn?: TranslatedText | undefined };

/** Texts named by their translation item names, each as the reporter reads it in `lang`. */
export function translateTexts(originals: ReadonlyMap<string, string>, translations: Translations, lang: string): { texts: Map<string, ShownText>; missing: boolean } {
  const translator = new TextTranslator(translations, lang);
  const texts = new Map<string, ShownText>();
  for (const [name, original] of originals) texts.set(name, { text: translator.text(name, original), translatedIn: translator.languageOf(name) });
  return { texts, missing: translator.missing };
}

/** The organisation's texts a reporter reads on its page and in the enquiry dialog. */
export type OrganisationTexts = Record<keyof typeof ORGANISATION_TEXT_NAMES, string>;
export type TranslatedOrganisationTexts = {
  texts: OrganisationTexts;
  attributes: Partial<Record<keyof OrganisationTexts, TranslatedText>>;
  /** The names of the forms the page lists, by form id. */
  formNames: Map<string, ShownText>;
  missing: boolean;
};

export function translateOrganisationTexts(originals: OrganisationTexts, translations: Translations, lang: string, forms: readonly { id: string; name: string }[] = []): TranslatedOrganisationTexts {
  const listed = translateTexts(new Map(forms.map((form) => [listedFormName(form.id), form.name])), translations, lang);
  const formNames = new Map(forms.map((form) => [form.id, listed.texts.get(listedFormName(form.id))!]));
  const translator = new TextTranslator(translations, lang);
  const keys = Object.keys(ORGANISATION_TEXT_NAMES) as (keyof OrganisationTexts)[];
  const texts = { ...originals };
  const attributes: TranslatedOrganisationTexts['attributes'] = {};
  for (const key of keys) {
    texts[key] = translator.text(ORGANISATION_TEXT_NAMES[key], originals[key]);
    attributes[key] = translator.languageOf(ORGANISATION_TEXT_NAMES[key]);
  }
  return { texts, attributes, formNames, missing: translator.missing || listed.missing };
}
