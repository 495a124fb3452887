import { expectLanguages, expectTranslations, providerRequest, ProviderError, type ProviderFormat, type TranslationProvider } from "./provider.ts";

/**
 * A LibreTranslate-compatible server (POST /translate, GET /languages). Run beside Lantern it is
 * the private choice: texts never leave the operator's infrastructure. The public
 * libretranslate.com is a hosted service like any other, so it does not count as self-hosted.
 */

const NAME = "libretranslate";

export function isSelfHostedLibreTranslate(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase();
  return host !== "libretranslate.com" && !host.endsWith(".libretranslate.com");
}

export function createLibreTranslateProvider(url: string, apiKey: string | null): TranslationProvider {
  return {
    name: NAME,
    selfHosted: isSelfHostedLibreTranslate(url),
    // LibreTranslate's default character limit per request is 5,000 on public servers; own servers often lift it.
    batchLimits: { texts: 50, characters: 5_000 },
    async languages() {
      const answer = await providerRequest(NAME, `${url}/languages`, { headers: { accept: "application/json" } });
      return expectLanguages(NAME, answer, (entry) => ({ code: entry.code, name: entry.name }));
    },
    async translate(texts: readonly string[], format: ProviderFormat, source: string, target: string) {
      const body = { q: texts, source, target, format, ...(apiKey ? { api_key: apiKey } : {}) };
      const answer = await providerRequest(NAME, `${url}/translate`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
      });
      if (typeof answer !== "object" || answer === null) throw new ProviderError(`${NAME} answered something Lantern does not understand`);
      return expectTranslations(NAME, (answer as { translatedText?: unknown }).translatedText, texts.length);
    },
  };
}
