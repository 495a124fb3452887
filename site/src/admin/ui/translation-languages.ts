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

/** 'Deutsch (de)', or the code alone when the list does not name it. */
export function languageLabel(code: string, languages: readonly TranslationLanguage[] | null | undefined): string {
  const name = languages?.find((language) => language.code === code)?.name;
  return name ? `${name} (${code})` : code;
}
