import { TRANSLATION_LANGUAGE_STORAGE_KEY, type ReporterTranslationSetup, type TranslationLanguage } from '../../../api/shared/translation';
import { readPageData } from './page-data';

// The always-loaded part of form translation on reporter pages (docs/decisions/044-reporter-language-menu.md):
// reading the inline setup, ordering the menu and keeping the reporter's choice for this tab. Everything
// that fetches or applies translations lives in translation-apply.ts, loaded only once a language is chosen.

export const LANGUAGE_MENU_LABEL = 'Language';
export const TRANSLATION_UNAVAILABLE = 'Translation is unavailable right now; showing the original text.';

const RIGHT_TO_LEFT = new Set(['ar', 'he', 'iw', 'fa', 'ur', 'ps', 'yi', 'dv', 'ckb', 'sd', 'ug']);

/** 'rtl' for the scripts written right to left ('ar', 'he', 'fa-AF'), else undefined (the page's own direction). */
export function textDirection(code: string): 'rtl' | undefined {
  return RIGHT_TO_LEFT.has(code.toLowerCase().split('-')[0] ?? '') ? 'rtl' : undefined;
}

/** The `translation` field of a page's data block, read rather than trusted; null when off or unreadable. */
export function readTranslationSetup(pageData: unknown): ReporterTranslationSetup | null {
  if (typeof pageData !== 'object' || pageData === null) return null;
  const setup: unknown = (pageData as { translation?: unknown }).translation;
  if (typeof setup !== 'object' || setup === null) return null;
  const { sourceLanguage, languages } = setup as { sourceLanguage?: unknown; languages?: unknown };
  if (typeof sourceLanguage !== 'string' || !Array.isArray(languages)) return null;
  const valid = languages.filter(
    (entry): entry is TranslationLanguage => typeof entry?.code === 'string' && typeof entry?.name === 'string' && entry.code !== '',
  );
  return { sourceLanguage, languages: valid };
}

/** The placeholder the follow-up area and the report login carry the setup in (they have no other inline data). */
export const TRANSLATION_DATA_ID = 'lantern-translation';

/** The setup from that placeholder; null when it was left untouched (no organisation, or translations off). */
export function readPlaceholderSetup(): ReporterTranslationSetup | null {
  return readTranslationSetup({ translation: readPageData(TRANSLATION_DATA_ID) });
}

/** The menu's entries: the organisation's own language first, the rest by their own names, each once. */
export function menuLanguages({ sourceLanguage, languages }: ReporterTranslationSetup): TranslationLanguage[] {
  const source = languages.find((language) => language.code === sourceLanguage) ?? { code: sourceLanguage, name: sourceLanguage };
  const others = languages
    .filter((language, index) => language.code !== sourceLanguage && languages.findIndex((other) => other.code === language.code) === index)
    .sort((a, b) => a.name.localeCompare(b.name));
  return [source, ...others];
}

export function storedLanguage(): string | null {
  try {
    return window.sessionStorage.getItem(TRANSLATION_LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Keeps the choice for this tab; choosing the organisation's own language forgets it. */
export function storeLanguage(code: string, setup: ReporterTranslationSetup): void {
  try {
    if (code === setup.sourceLanguage) window.sessionStorage.removeItem(TRANSLATION_LANGUAGE_STORAGE_KEY);
    else window.sessionStorage.setItem(TRANSLATION_LANGUAGE_STORAGE_KEY, code);
  } catch {
    // Storage may be disabled: the choice then lasts for this page only.
  }
}

/** The language to show: the stored choice when this organisation offers it, else the original. */
export function chosenLanguage(setup: ReporterTranslationSetup | null): string | null {
  if (!setup) return null;
  const stored = storedLanguage();
  return stored && stored !== setup.sourceLanguage && setup.languages.some((language) => language.code === stored) ? stored : null;
}
