import * as v from "valibot";
import { badInput } from "../../lib/errors.ts";
import { sanitiseRichText } from "../../lib/rich-text-sanitiser.ts";
import { IdText } from "../../lib/validation.ts";
import { FORM_LIMITS, type TextLimit } from "../../shared/limits.ts";
import { RICH_TEXT_MAX_LENGTH } from "../../shared/rich-text.ts";
import type { TranslationSource } from "../translation/sources.ts";
import { LanguageCode } from "./language-code.ts";

/**
 * What a staff member's review of one translated text may carry. The text it belongs to is named,
 * never sent: the server looks it up in the form's current build. An override is held to the
 * bounds of the field it translates (decision 020), and rich text is rebuilt from the allowlist,
 * which keeps 'do not translate' spans.
 */

/** Item names are short and made by the server (api/shared/translation.ts): anything longer is no item. */
const ITEM_NAME_MAX = 200;

export const TranslationUpdateInput = v.object({
  reportFormID: IdText,
  lang: LanguageCode,
  name: v.pipe(v.string(), v.maxLength(ITEM_NAME_MAX, "This text is not part of the form")),
  // The largest any field allows; the field's own bound is checked once the name is known.
  translatedText: v.optional(v.pipe(v.string(), v.maxLength(FORM_LIMITS.messageHtml.max, FORM_LIMITS.messageHtml.tooLong))),
  reviewed: v.boolean(),
});
export type TranslationUpdate = v.InferOutput<typeof TranslationUpdateInput>;

/** The bound of the field an item's text comes from, by the item's name. */
function limitOf(source: TranslationSource): TextLimit {
  if (source.format === "HTML") return FORM_LIMITS.messageHtml;
  if (source.name === "form.name") return FORM_LIMITS.formName;
  if (source.name.startsWith("form.")) return FORM_LIMITS.messageTitle;
  if (/\.answer\.\d+$/.test(source.name)) return FORM_LIMITS.option;
  if (source.name.endsWith(".pageName")) return FORM_LIMITS.pageName;
  if (source.name.endsWith(".title")) return FORM_LIMITS.widgetTitle;
  return FORM_LIMITS.widgetText;
}

/**
 * The override as stored: null keeps the machine text (so does a text that is blank, or markup
 * that shows nothing once cleaned); plain text trimmed; rich text sanitised like the original.
 */
export function cleanOverride(source: TranslationSource, raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const limit = limitOf(source);
  const tooLong = () => badInput(limit.tooLong, [{ field: "translatedText", message: limit.tooLong }]);
  if (source.format === "HTML") {
    if (raw.length > limit.max) throw tooLong();
    const clean = sanitiseRichText(raw);
    if (clean.length > RICH_TEXT_MAX_LENGTH) throw tooLong();
    return clean === "" ? null : clean;
  }
  const text = raw.trim();
  if (text.length > limit.max) throw tooLong();
  return text === "" ? null : text;
}
