import { useEffect, useMemo } from 'react';
import type { Translatable } from '../forms/translated-text';
import { readPageData } from '../lib/page-data';
import { LANGUAGE_MENU_LABEL, menuLanguages, readTranslationSetup, TRANSLATION_UNAVAILABLE } from '../lib/reporter-language';
import type { ReporterForm } from './report-flow/report-data';
import { usePageLanguage } from './use-page-language';

export const LANGUAGE_MENU_ID = 'lt-language';

/** A form as the reporter reads it, and the original it was made from (so a reloaded form is never shown stale). */
export type ShownForm = { source: ReporterForm; form: ReporterForm & Translatable };

type LanguageMenuProps = {
  /** The page's data block, whose `translation` field says which languages the organisation offers. */
  dataID: string;
  organisationID: string;
  /** The form the page shows, when it shows one: translated and handed back through `onShown`. */
  form?: ReporterForm | undefined;
  onShown?: (shown: ShownForm | undefined) => void;
};

/**
 * The reporter's language menu on the React pages (docs/decisions/044-reporter-language-menu.md), shown
 * where the organisation offers translations and loaded after the page's first step: a native select (every screen reader and
 * phone knows it), each language named in itself, and a polite notice when some text stays in the original.
 */
export function LanguageMenu({ dataID, organisationID, form, onShown }: LanguageMenuProps) {
  const setup = useMemo(() => readTranslationSetup(readPageData(dataID)), [dataID]);
  const { lang, choose, loaded } = usePageLanguage(setup, organisationID, form?.id);
  const applied = useMemo(() => (form && loaded && !loaded.failed ? loaded.module.translateForm(form, loaded.translations, loaded.lang) : undefined), [form, loaded]);

  useEffect(() => {
    onShown?.(form && applied ? { source: form, form: applied.form } : undefined);
  }, [form, applied, onShown]);

  if (!setup) return null;
  const unavailable = Boolean(loaded?.failed || applied?.missing);
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
