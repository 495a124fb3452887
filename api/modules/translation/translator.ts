import type { TranslationFormat, TranslationLanguage } from "../../shared/translation.ts";

/**
 * The one way into machine translation (docs/decisions/043-form-translation.md). Created at boot
 * from the configured provider; null in Services when none is set up.
 */
export interface Translator {
  /** 'libretranslate', 'deepl' or 'google': part of every cache key. */
  readonly provider: string;
  /**
   * True when the provider runs on the operator's own infrastructure (a LibreTranslate server other
   * than the public libretranslate.com): only then may staff send a reporter's words to it.
   */
  readonly selfHosted: boolean;
  /** The provider's target languages, each named in itself, fetched once and kept. */
  languages(): Promise<TranslationLanguage[]>;
  /**
   * Organisation-authored texts in one format, translated from `source` to `target`, in order; cached
   * in the database per text, language pair and provider. Null in place of a text the provider
   * could not translate (down, refused, timed out): the caller shows the original.
   */
  translateOrganisationTexts(texts: readonly string[], format: TranslationFormat, source: string, target: string): Promise<(string | null)[]>;
  /**
   * A reporter's words for staff: never cached, never logged, refused unless selfHosted.
   * Source language detected by the provider.
   */
  translateReporterTexts(texts: readonly string[], target: string): Promise<(string | null)[]>;
}
