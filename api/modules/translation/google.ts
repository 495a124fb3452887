import { expectLanguages, expectTranslations, providerRequest, ProviderError, type ProviderFormat, type TranslationProvider } from "./provider.ts";

/**
 * Google Cloud Translation, basic edition (v2: POST /language/translate/v2, GET
 * /language/translate/v2/languages), the provider that reaches the most languages; a hosted
 * service reached with the operator's API key.
 */

const NAME = "google";

export function createGoogleProvider(url: string, apiKey: string): TranslationProvider {
  const key = encodeURIComponent(apiKey);
  const headers = { accept: "application/json" };
  return {
    name: NAME,
    selfHosted: false,
    // Google accepts up to 128 texts a request and recommends at most 5,000 characters in all.
    batchLimits: { texts: 100, characters: 5_000 },
    async languages() {
      const answer = await providerRequest(NAME, `${url}/language/translate/v2/languages?target=en&key=${key}`, { headers });
      const languages = (answer as { data?: { languages?: unknown } } | null)?.data?.languages;
      return expectLanguages(NAME, languages, (entry) => ({ code: entry.language, name: entry.name }));
    },
    async translate(texts: readonly string[], format: ProviderFormat, source: string, target: string) {
      const body = { q: texts, target, format, ...(source === "auto" ? {} : { source }) };
      const answer = await providerRequest(NAME, `${url}/language/translate/v2?key=${key}`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const translations = (answer as { data?: { translations?: unknown } } | null)?.data?.translations;
      if (!Array.isArray(translations)) throw new ProviderError(`${NAME} answered something Lantern does not understand`);
      return expectTranslations(NAME, translations.map((item: unknown) => (item as { translatedText?: unknown } | null)?.translatedText), texts.length);
    },
  };
}
