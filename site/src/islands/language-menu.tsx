import { useEffect, useMemo } from 'react';
import type { ReporterTranslationSetup } from '../../../api/shared/translation';
import type { Translatable } from '../forms/translated-text';
import { readPageData, REPORT_FORM_DATA_ID } from '../lib/page-data';
import { LANGUAGE_MENU_LABEL, menuLanguages, readTranslationSetup, TRANSLATION_UNAVAILABLE } from '../lib/reporter-language';
import type { ReporterForm } from './report-flow/report-data';
import { usePageLanguage, type PageLanguage } from './use-page-language';

export const LANGUAGE_MENU_ID = 'lt-language';

/** A form as the reporter reads it, and the original it was made from (so a reloaded form is never shown stale). */
export type ShownForm = { source: ReporterForm; form: ReporterForm & Translatable };

type LanguageMenuProps = {
  organisationID: string;
  /** The form the page shows, when it shows one: translated and handed back through `onShown`. */
  form?: ReporterForm | undefined;
  onShown?: (shown: ShownForm | undefined) => void;
};

/**
 * The report form's language menu (docs/decisions/044-reporter-language-menu.md), shown where the
 * organisation offers translations and loaded after the page's first step: a native select (every screen
 * reader and phone knows it), each language named in itself, and a polite notice when some text stays in
 * the original. It hands the form, translated, back through `onShown`.
 */
export function LanguageMenu({ organisationID, form, onShown }: LanguageMenuProps) {
  // The report page's data block, whose `translation` field says which languages the organisation offers.
  const setup = useMemo(() => readTranslationSetup(readPageData(REPORT_FORM_DATA_ID)), []);
  const { lang, choose, loaded } = usePageLanguage(setup, organisationID, form?.id);
  const applied = useMemo(() => (form && loaded && !loaded.failed ? loaded.module.translateForm(form, loaded.translations, loaded.lang) : undefined), [form, loaded]);

  useEffect(() => {
    onShown?.(form && applied ? { source: form, form: applied.form } : undefined);
  }, [form, applied, onShown]);

  if (!setup) return null;
  return <LanguageSelect setup={setup} lang={lang} choose={choose} unavailable={Boolean(loaded?.failed || applied?.missing)} />;
}

type LanguageSelectProps = Pick<PageLanguage, 'lang' | 'choose'> & { setup: ReporterTranslationSetup; unavailable: boolean };

/** The menu itself, for every React page that offers one: the form, the follow-up area, the report login. */
export function LanguageSelect({ setup, lang, choose, unavailable }: LanguageSelectProps) {
  return (
    <div className="language-menu">
      <label className="language-menu__label" htmlFor={LANGUAGE_MENU_ID}>
        {LANGUAGE_MENU_LABEL}
      </label>
      <select id={LANGUAGE_MENU_ID} className="language-menu__select" value={lang ?? setup.sourceLanguage} onChange={(event) => choose(event.target.value)}>
        {menuLanguages(setup).map((entry) => (
          <option key={entry.code} value={entry.code} lang={entry.code}>
            {entry.name}
          </option>
        ))}
      </select>
      <p className="language-menu__notice" role="status">
        {unavailable ? TRANSLATION_UNAVAILABLE : ''}
      </p>
    </div>
  );
}
