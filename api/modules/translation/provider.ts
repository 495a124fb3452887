/**
 * What every machine-translation provider offers Lantern: its target languages and a batch of texts
 * translated in one format (docs/decisions/043-form-translation.md). Each provider speaks its own
 * protocol in its own file; the Translator (service.ts) adds the cache, the batching and the
 * 'do not translate' protection on top, so none of that is repeated per provider.
 */

export type ProviderFormat = "html" | "text";

export interface ProviderLanguage {
  code: string;
  /** The provider's own (usually English) name, used when the runtime cannot name the language in itself. */
  name: string;
}

export interface TranslationProvider {
  readonly name: "libretranslate" | "deepl" | "google";
  readonly selfHosted: boolean;
  /** The most texts and characters one request may carry: the Translator splits larger work. */
  readonly batchLimits: { texts: number; characters: number };
  languages(): Promise<ProviderLanguage[]>;
  /** The texts in order, or a ProviderError; `source` 'auto' lets the provider detect it. */
  translate(texts: readonly string[], format: ProviderFormat, source: string, target: string): Promise<string[]>;
}

/**
 * A provider that failed: unreachable, slow, refused or answering something unexpected. Its
 * message names the provider and the failure, never the texts (they must not reach a log).
 */
export class ProviderError extends Error {}

/** A provider that has not answered by then is treated as down: a reporter's page must not wait longer. */
export const PROVIDER_TIMEOUT_MS = 8_000;

/** Provider answers are small JSON documents; anything larger is not what was asked for. */
const MAX_ANSWER_BYTES = 10 * 1024 * 1024;

/** One HTTP exchange with a provider, answering the parsed JSON body or throwing a ProviderError. */
export async function providerRequest(provider: string, url: string, init: RequestInit = {}): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: "error", signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new ProviderError(timedOut ? `${provider} did not answer within ${PROVIDER_TIMEOUT_MS / 1000} s` : `${provider} could not be reached`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ProviderError(`${provider} answered HTTP ${response.status}`);
  }
  const length = Number(response.headers.get("content-length") ?? 0);
  if (length > MAX_ANSWER_BYTES) {
    await response.body?.cancel();
    throw new ProviderError(`${provider} answered more than expected`);
  }
  try {
    const body = await response.text();
    if (body.length > MAX_ANSWER_BYTES) throw new ProviderError(`${provider} answered more than expected`);
    return JSON.parse(body) as unknown;
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    throw new ProviderError(`${provider} answered something other than JSON`);
  }
}

/** The answer's translations, checked to be exactly one string per text sent. */
export function expectTranslations(provider: string, value: unknown, count: number): string[] {
  if (!Array.isArray(value) || value.length !== count || !value.every((item) => typeof item === "string")) {
    throw new ProviderError(`${provider} answered a different number of translations than texts sent`);
  }
  return value as string[];
}

/** The provider's language list, with entries that are not a code and a name dropped. */
export function expectLanguages(provider: string, value: unknown, read: (entry: Record<string, unknown>) => { code: unknown; name: unknown }): ProviderLanguage[] {
  if (!Array.isArray(value)) throw new ProviderError(`${provider} answered a language list Lantern does not understand`);
  const languages: ProviderLanguage[] = [];
  for (const entry of value) {
    if (typeof entry !== "object" || entry === null) continue;
    const { code, name } = read(entry as Record<string, unknown>);
    if (typeof code === "string" && /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8}){0,2}$/.test(code)) {
      languages.push({ code, name: typeof name === "string" && name.trim() !== "" ? name.trim().slice(0, 100) : code });
    }
  }
  return languages;
}
