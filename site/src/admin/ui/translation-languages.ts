import { useQuery } from 'urql';
import type { TranslationLanguage } from '../../../../api/shared/translation';

// The translation provider's languages, shared by the organisation's form language setting and the
// form editor's Translations tab.

const LANGUAGES_QUERY = 'query TranslationLanguages { translationLanguages { code name } }';

/**
 * The provider's languages, each named in itself, when this installation offers the list; undefined
 * while it loads; null when it cannot (no provider, or a server without the list): callers then
 * let staff type a language code.
 */
export function useTranslationLanguages(): TranslationLanguage[] | null | undefined {
  const [result] = useQuery<{ translationLanguages: TranslationLanguage[] | null }>({ query: LANGUAGES_QUERY });
  if (result.fetching && !result.data && !result.error) return undefined;
  const languages = result.error ? null : result.data?.translationLanguages;
  return languages && languages.length > 0 ? languages : null;
}

/** The browser's own name for a language, in that language ('Deutsch'); undefined for a code it does not know. */
function nameInItself(code: string): string | undefined {
  try {
    const name = new Intl.DisplayNames([code], { type: 'language' }).of(code);
    return name && name !== code ? name : undefined;
  } catch {
    return undefined;
  }
}

/** 'Deutsch (de)': the provider's name, else the browser's, else the code alone. */
export function languageLabel(code: string, languages: readonly TranslationLanguage[] | null | undefined): string {
  const name = languages?.find((language) => language.code === code)?.name ?? nameInItself(code);
  return name ? `${name} (${code})` : code;
}
