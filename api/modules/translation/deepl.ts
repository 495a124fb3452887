import { expectLanguages, expectTranslations, providerRequest, ProviderError, type ProviderFormat, type TranslationProvider } from "./provider.ts";

/**
 * DeepL's API (POST /v2/translate, GET /v2/languages?type=target), a hosted service reached with
 * the operator's key. DeepL spells codes in capitals ('DE', 'PT-BR', 'ZH-HANS'); Lantern keeps
 * BCP 47 spelling ('de', 'pt-BR', 'zh-Hans') everywhere else, so pages and caches look the same
 * whichever provider answers.
 */

const NAME = "deepl";

/** 'PT-BR' → 'pt-BR', 'ZH-HANS' → 'zh-Hans'. */
export function fromDeepLCode(code: string): string {
  const [language = "", ...rest] = code.split("-");
  const subtags = rest.map((part) => (part.length === 4 ? part[0]!.toUpperCase() + part.slice(1).toLowerCase() : part.toUpperCase()));
  return [language.toLowerCase(), ...subtags].join("-");
}

export const toDeepLCode = (code: string): string => code.toUpperCase();

/** DeepL names only the base language of a source ('EN', not 'EN-GB'). */
const sourceCode = (code: string): string => toDeepLCode(code.split("-")[0]!);

export function createDeepLProvider(url: string, apiKey: string): TranslationProvider {
  const headers = { authorization: `DeepL-Auth-Key ${apiKey}`, accept: "application/json" };
  return {
    name: NAME,
    selfHosted: false,
    // DeepL takes up to 50 texts and 128 KiB a request.
    batchLimits: { texts: 50, characters: 30_000 },
    async languages() {
      const answer = await providerRequest(NAME, `${url}/v2/languages?type=target`, { headers });
      return expectLanguages(NAME, answer, (entry) => ({ code: typeof entry.language === "string" ? fromDeepLCode(entry.language) : null, name: entry.name }));
    },
    async translate(texts: readonly string[], format: ProviderFormat, source: string, target: string) {
      const body = {
        text: texts,
        target_lang: toDeepLCode(target),
        ...(source === "auto" ? {} : { source_lang: sourceCode(source) }),
        ...(format === "html" ? { tag_handling: "html" } : {}),
      };
      const answer = await providerRequest(NAME, `${url}/v2/translate`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) });
      const translations = (answer as { translations?: unknown } | null)?.translations;
      if (!Array.isArray(translations)) throw new ProviderError(`${NAME} answered something Lantern does not understand`);
      return expectTranslations(NAME, translations.map((item: unknown) => (item as { text?: unknown } | null)?.text), texts.length);
    },
  };
}
