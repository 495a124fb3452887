import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { translationCache } from "../../../db/schema/index.ts";
import type { TranslationConfig } from "../../config.ts";
import { UserError } from "../../lib/errors.ts";
import { logError } from "../../lib/log.ts";
import { sha256Hex } from "../../lib/tokens.ts";
import { RICH_TEXT_MAX_LENGTH } from "../../shared/rich-text.ts";
import type { TranslationFormat } from "../../shared/translation.ts";
import { protectUntranslated, restoreUntranslated } from "./keep-untranslated.ts";
import { LanguageList } from "./languages.ts";
import { createDeepLProvider } from "./deepl.ts";
import { createGoogleProvider } from "./google.ts";
import { createLibreTranslateProvider } from "./libretranslate.ts";
import type { ProviderFormat, TranslationProvider } from "./provider.ts";
import type { Translator } from "./translator.ts";

/**
 * The Translator Lantern runs with (docs/decisions/043-form-translation.md): organisation texts go
 * through the database cache first, so the provider only ever sees a text once per language pair;
 * a provider failure leaves nulls (the page shows the original), never an error for the caller.
 */

export const REPORTER_TRANSLATION_REFUSED = "Reporters' words are only translated by a translation server the organisation runs itself.";

/** Cache lookups go in slices so one query's parameter list stays modest whatever the form's size. */
const CACHE_LOOKUP_SLICE = 500;
/** Translations kept in memory besides the database: a few hundred forms' worth in a few languages, some megabytes. */
const REMEMBERED_TRANSLATIONS = 50_000;

export function createProvider(config: TranslationConfig): TranslationProvider {
  switch (config.provider) {
    case "libretranslate":
      return createLibreTranslateProvider(config.url, config.apiKey);
    // The configuration requires a key for both hosted services.
    case "deepl":
      return createDeepLProvider(config.url, config.apiKey ?? "");
    case "google":
      return createGoogleProvider(config.url, config.apiKey ?? "");
  }
}

/** Texts cut into requests the provider accepts; a text longer than the character limit goes alone. */
export function batches(texts: readonly string[], limits: TranslationProvider["batchLimits"]): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let characters = 0;
  for (const text of texts) {
    if (current.length > 0 && (current.length >= limits.texts || characters + text.length > limits.characters)) {
      out.push(current);
      current = [];
      characters = 0;
    }
    current.push(text);
    characters += text.length;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Sends the texts batch by batch; after one failure the rest are not tried (the provider is likely down). */
async function translateInBatches(provider: TranslationProvider, texts: readonly string[], format: ProviderFormat, source: string, target: string): Promise<(string | null)[]> {
  const results: (string | null)[] = [];
  let failed = false;
  for (const batch of batches(texts, provider.batchLimits)) {
    if (failed) {
      results.push(...batch.map(() => null));
      continue;
    }
    try {
      results.push(...(await provider.translate(batch, format, source, target)));
    } catch (error) {
      failed = true;
      // The provider's failure, never the texts: they must not reach a log.
      logError("Texts could not be translated", error instanceof Error ? error.message : "unknown failure", { provider: provider.name, target, count: batch.length });
      results.push(...batch.map(() => null));
    }
  }
  return results;
}

/** One text's translation as the page may show it, or null when it is not usable. */
function usable(translated: string | null, format: TranslationFormat, kept: readonly string[]): string | null {
  if (translated === null || translated.trim() === "" || translated.length > RICH_TEXT_MAX_LENGTH) return null;
  return format === "HTML" ? restoreUntranslated(translated, kept) : translated;
}

export function createTranslator(config: TranslationConfig, db: Database, provider: TranslationProvider = createProvider(config)): Translator {
  const languages = new LanguageList(provider.name, () => provider.languages());
  // Fetched at start, in the background: the first reporter page then finds the list ready.
  void languages.get();

  // Cached translations never change (a changed text is another hash), so every instance may keep
  // the ones it read: a busy form in a popular language is then answered without the database.
  const remembered = new Map<string, string>();
  const memoryKey = (hash: string, format: TranslationFormat, source: string, target: string) => `${source}\u0000${target}\u0000${format}\u0000${hash}`;
  function remember(key: string, translated: string): void {
    if (remembered.size >= REMEMBERED_TRANSLATIONS) remembered.delete(remembered.keys().next().value!);
    remembered.set(key, translated);
  }

  async function cached(allHashes: string[], format: TranslationFormat, source: string, target: string): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const hashes: string[] = [];
    for (const hash of allHashes) {
      const known = remembered.get(memoryKey(hash, format, source, target));
      if (known === undefined) hashes.push(hash);
      else found.set(hash, known);
    }
    for (let start = 0; start < hashes.length; start += CACHE_LOOKUP_SLICE) {
      const rows = await db
        .select({ sourceHash: translationCache.sourceHash, translatedText: translationCache.translatedText })
        .from(translationCache)
        .where(
          and(
            eq(translationCache.provider, provider.name),
            eq(translationCache.sourceLanguage, source),
            eq(translationCache.targetLanguage, target),
            eq(translationCache.format, format),
            inArray(translationCache.sourceHash, hashes.slice(start, start + CACHE_LOOKUP_SLICE)),
          ),
        );
      for (const row of rows) {
        found.set(row.sourceHash, row.translatedText);
        remember(memoryKey(row.sourceHash, format, source, target), row.translatedText);
      }
    }
    return found;
  }

  // Texts on their way to the provider: a second page asking for the same ones meanwhile waits for
  // that answer instead of sending them again.
  const inFlight = new Map<string, Promise<string | null>>();

  /** Translations of texts the cache does not have, by hash; each sent once however many ask at once. */
  async function translateMissing(missing: { text: string; hash: string }[], format: TranslationFormat, source: string, target: string): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const waiting: Promise<void>[] = [];
    const toSend = missing.filter(({ hash }) => {
      const pending = inFlight.get(memoryKey(hash, format, source, target));
      if (pending) waiting.push(pending.then((text) => void (text !== null && found.set(hash, text))));
      return !pending;
    });
    let finish: (answers: Map<string, string>) => void = () => {};
    const sending = new Promise<Map<string, string>>((resolve) => (finish = resolve));
    for (const { hash } of toSend) inFlight.set(memoryKey(hash, format, source, target), sending.then((answers) => answers.get(hash) ?? null));
    const answered = new Map<string, string>();
    try {
      if (toSend.length > 0) {
        const prepared = toSend.map(({ text }) => (format === "HTML" ? protectUntranslated(text) : { html: text, kept: [] as string[] }));
        const answers = await translateInBatches(provider, prepared.map((item) => item.html), format === "HTML" ? "html" : "text", source, target);
        toSend.forEach(({ hash }, index) => {
          const translated = usable(answers[index] ?? null, format, prepared[index]!.kept);
          if (translated !== null) answered.set(hash, translated);
        });
        const fresh = [...answered].map(([sourceHash, translatedText]) => ({ provider: provider.name, sourceLanguage: source, targetLanguage: target, format, sourceHash, translatedText }));
        if (fresh.length > 0) await db.insert(translationCache).values(fresh).onConflictDoNothing();
        for (const [hash, text] of answered) remember(memoryKey(hash, format, source, target), text);
      }
    } finally {
      finish(answered);
      for (const { hash } of toSend) inFlight.delete(memoryKey(hash, format, source, target));
    }
    for (const [hash, text] of answered) found.set(hash, text);
    await Promise.all(waiting);
    return found;
  }

  return {
    provider: provider.name,
    selfHosted: provider.selfHosted,
    languages: () => languages.get(),

    async translateOrganisationTexts(texts, format, source, target) {
      try {
        const unique = [...new Set(texts.filter((text) => text.trim() !== ""))];
        const hashOf = new Map(unique.map((text) => [text, sha256Hex(text)]));
        const known = await cached([...hashOf.values()], format, source, target);
        const missing = unique.filter((text) => !known.has(hashOf.get(text)!));
        if (missing.length > 0) {
          const translated = await translateMissing(missing.map((text) => ({ text, hash: hashOf.get(text)! })), format, source, target);
          for (const [hash, text] of translated) known.set(hash, text);
        }
        return texts.map((text) => known.get(hashOf.get(text) ?? "") ?? null);
      } catch (error) {
        // The cache itself failing (a database hiccup) still leaves the page its originals.
        logError("Organisation texts could not be translated", error, { provider: provider.name, target });
        return texts.map(() => null);
      }
    },

    async translateReporterTexts(texts, target) {
      if (!provider.selfHosted) throw new UserError("FORBIDDEN", REPORTER_TRANSLATION_REFUSED);
      const answers = await translateInBatches(provider, texts, "text", "auto", target);
      return answers.map((answer) => usable(answer, "Text", []));
    },
  };
}
