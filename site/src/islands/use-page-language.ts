import { useEffect, useState } from 'react';
import type { ReporterTranslationSetup } from '../../../api/shared/translation';
import { chosenLanguage, storeLanguage } from '../lib/reporter-language';

/** The translation code, fetched only once a reporter reads another language (it is no part of the page's own weight). */
const translationModule = () => import('../lib/translation-apply');
type TranslationModule = Awaited<ReturnType<typeof translationModule>>;

/** What a page has once its texts were asked for in the chosen language: the module to apply them and the texts, or a failure. */
export type LoadedTranslations =
  | { lang: string; failed: false; module: TranslationModule; translations: NonNullable<Awaited<ReturnType<TranslationModule['fetchTranslations']>>> }
  | { lang: string; failed: true };

export type PageLanguage = {
  setup: ReporterTranslationSetup | null;
  /** The language chosen, or null for the organisation's own. */
  lang: string | null;
  choose: (code: string) => void;
  /** The translations for `lang`, once fetched; undefined meanwhile, so the originals show. */
  loaded: LoadedTranslations | undefined;
};

/**
 * The reporter's language on a React page: the stored choice (this tab only), and the organisation's
 * (and form's) texts in it, fetched once per language choice: all of them, or only the `items` named.
 * Without an organisation nothing is fetched (the report login, which shows no organisation text).
 */
export function usePageLanguage(setup: ReporterTranslationSetup | null, organisationID: string | undefined, reportFormID?: string, items?: readonly string[]): PageLanguage {
  const [lang, setLang] = useState(() => chosenLanguage(setup));
  const [loaded, setLoaded] = useState<LoadedTranslations>();
  // A list made anew each render must not fetch again: the names themselves are what matter.
  const itemsKey = items?.join('\n');

  useEffect(() => {
    setLoaded(undefined);
    if (!lang || !organisationID) return;
    let live = true;
    translationModule()
      .then(async (module) => {
        const translations = await module.fetchTranslations(lang, organisationID, reportFormID, itemsKey === undefined ? undefined : itemsKey.split('\n').filter(Boolean));
        if (live) setLoaded(translations ? { lang, failed: false, module, translations } : { lang, failed: true });
      })
      // The module itself could not be fetched: the page stays in the original, and says so.
      .catch(() => live && setLoaded({ lang, failed: true }));
    return () => {
      live = false;
    };
  }, [lang, organisationID, reportFormID, itemsKey]);

  const choose = (code: string) => {
    if (!setup) return;
    storeLanguage(code, setup);
    setLang(code === setup.sourceLanguage ? null : code);
  };
  return { setup, lang, choose, loaded };
}
