import { LANGUAGE_MENU_LABEL, menuLanguages, TRANSLATION_UNAVAILABLE } from '../lib/reporter-language';
import type { PageLanguage } from './use-page-language';

export const LANGUAGE_MENU_ID = 'lt-language';

/**
 * The reporter's language menu on the React pages: a native select (every screen reader and phone knows
 * it), each language named in itself, and a polite notice when some text has to stay in the original.
 */
export function LanguageMenu({ language, unavailable }: { language: PageLanguage; unavailable: boolean }) {
  const { setup, lang, choose } = language;
  if (!setup) return null;
  return (
    <div className="language-menu">
      <label className="language-menu__label" htmlFor={LANGUAGE_MENU_ID}>
        {LANGUAGE_MENU_LABEL}
      </label>
      <select id={LANGUAGE_MENU_ID} className="form-input form-select language-menu__select" value={lang ?? setup.sourceLanguage} onChange={(event) => choose(event.target.value)}>
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
