import type { ReporterTranslationSetup } from '../../../../api/shared/translation';
import type { TranslatedText } from '../../forms/translated-text';
import { h } from '../../lib/dom';
import { chosenLanguage, LANGUAGE_MENU_LABEL, menuLanguages, storeLanguage, TRANSLATION_UNAVAILABLE } from '../../lib/reporter-language';
import type { OrganisationTexts, ShownText } from '../../lib/translation-apply';

const MENU_ID = 'lt-language';

/** Marks an element as holding a translated text (`lang`, and `dir` for right-to-left), or as the original. */
export function withLanguage<T extends Element | null>(element: T, text: TranslatedText | undefined): T {
  if (!element) return element;
  const { lang, dir } = text ?? {};
  for (const [name, value] of [['lang', lang], ['dir', dir]] as const) {
    if (value) element.setAttribute(name, value);
    else element.removeAttribute(name);
  }
  return element;
}

/**
 * The organisation's texts as the page shows them, each with the `lang` of its translation (none for an
 * original), and its listed forms' names by form id (absent: the originals).
 */
export type ShownOrganisationTexts = {
  texts: OrganisationTexts;
  attributes: Partial<Record<keyof OrganisationTexts, TranslatedText>>;
  formNames?: ReadonlyMap<string, ShownText>;
};

/**
 * The organisation page's language menu, without React: a native select of the languages named in
 * themselves, the organisation's own first. The translation code is fetched only once a language other
 * than the organisation's is chosen (or was chosen earlier in this tab). `ready` settles once the texts
 * to start with are known, so the welcome note opens once, in the reporter's language.
 */
export function organisationLanguageMenu(
  setup: ReporterTranslationSetup,
  organisationID: string,
  originals: OrganisationTexts,
  forms: readonly { id: string; name: string }[],
  show: (shown: ShownOrganisationTexts) => void,
): { element: HTMLElement; ready: Promise<void> } {
  const notice = h('p', { class: 'language-menu__notice', role: 'status' });
  const select = h(
    'select',
    { id: MENU_ID, class: 'language-menu__select' },
    ...menuLanguages(setup).map((language) => h('option', { value: language.code, lang: language.code }, language.name)),
  );
  let latest = 0;
  const showOriginals = () => show({ texts: originals, attributes: {} });

  const apply = async (lang: string | null): Promise<void> => {
    const request = ++latest;
    notice.textContent = '';
    if (!lang) return showOriginals();
    try {
      const { fetchTranslations, translateOrganisationTexts } = await import('../../lib/translation-apply');
      const translations = await fetchTranslations(lang, organisationID);
      if (request !== latest) return;
      const translated = translations ? translateOrganisationTexts(originals, translations, lang, forms) : undefined;
      show(translated ?? { texts: originals, attributes: {} });
      if (!translated || translated.missing) notice.textContent = TRANSLATION_UNAVAILABLE;
    } catch {
      // The translation code itself could not be fetched: the originals stay, and the page says so.
      if (request !== latest) return;
      showOriginals();
      notice.textContent = TRANSLATION_UNAVAILABLE;
    }
  };

  const initial = chosenLanguage(setup);
  select.value = initial ?? setup.sourceLanguage;
  select.addEventListener('change', () => {
    storeLanguage(select.value, setup);
    void apply(select.value === setup.sourceLanguage ? null : select.value);
  });
  const element = h('div', { class: 'language-menu' }, h('label', { class: 'language-menu__label', for: MENU_ID }, LANGUAGE_MENU_LABEL), select, notice);
  return { element, ready: initial ? apply(initial) : Promise.resolve() };
}
