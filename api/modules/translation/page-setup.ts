import type { Database } from "../../../db/client.ts";
import type { ReporterTranslationSetup, TranslationLanguage } from "../../shared/translation.ts";
import { nameInItself } from "./languages.ts";
import { translationSettings } from "./translate-data.ts";
import type { Translator } from "./translator.ts";

/**
 * What a reporter page carries inline about translation (the language menu): null unless the
 * organisation has translations on, a provider is set up and its languages are known. The list is
 * fetched at start; a page asked before it arrives waits at most this long, then goes without.
 */

export const LANGUAGE_WAIT_MS = 1_000;

/** The placeholder id a page without other inline data (the follow-up area, the report login) carries the setup in. */
export const TRANSLATION_SETUP_ELEMENT_ID = "lantern-translation";

function languagesWithin(translator: Translator, ms: number): Promise<TranslationLanguage[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<TranslationLanguage[]>((resolve) => {
    timer = setTimeout(() => resolve([]), ms);
  });
  return Promise.race([translator.languages(), timeout]).finally(() => clearTimeout(timer));
}

export async function reporterTranslationSetup(db: Database, translator: Translator | null, organisationId: string): Promise<ReporterTranslationSetup | null> {
  if (!translator) return null;
  const settings = await translationSettings({ db }, organisationId);
  if (!settings.enabled) return null;
  const languages = await languagesWithin(translator, LANGUAGE_WAIT_MS);
  if (languages.length === 0) return null;
  const source = settings.sourceLanguage;
  // The organisation's own language first, named in itself even when the provider does not list it.
  const own = languages.find((language) => language.code === source) ?? { code: source, name: nameInItself({ code: source, name: source }) };
  return { sourceLanguage: source, languages: [own, ...languages.filter((language) => language.code !== source)] };
}
