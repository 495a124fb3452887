import type { FormWidget } from '../../../api/shared/form-definition';

// What a translated widget carries besides the organisation's own definition
// (docs/decisions/044-reporter-language-menu.md). Its `answers` stay the organisation's original option
// texts: they are the values a reporter's choice is stored as and conditions compare against; only the
// visible labels change.

/** A translated text's `lang` (so screen readers pronounce it in its language) and `dir` for right-to-left. */
export type TranslatedText = { lang: string; dir?: 'rtl' | undefined };
/** `translatedIn`: set when the texts were translated, spread onto their elements as attributes; unset on the originals. */
export type Translatable = { translatedIn?: TranslatedText | undefined };
export type DisplayWidget = FormWidget & Translatable & { optionLabels?: readonly string[] };

/** What the reporter reads for an option: its translation when there is one, else the option itself. */
export function optionLabel(widget: DisplayWidget, option: string): string {
  const index = widget.answers.indexOf(option);
  return (index >= 0 ? widget.optionLabels?.[index] : undefined) ?? option;
}
