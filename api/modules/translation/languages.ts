import { logError } from "../../lib/log.ts";
import type { TranslationLanguage } from "../../shared/translation.ts";
import type { ProviderLanguage } from "./provider.ts";

/**
 * The provider's language list, asked once and kept: every reporter page offers it, and a page
 * must never wait on the provider. A failed refresh keeps the last good list; with none yet, the
 * provider is not asked again for a while, so a down provider is not asked on every page.
 */

const FRESH_FOR_MS = 24 * 60 * 60 * 1000;
const RETRY_AFTER_FAILURE_MS = 30 * 1000;

/** 'Deutsch', 'français', '日本語': a reporter looks for their language by the name they know it by. */
export function nameInItself(language: ProviderLanguage): string {
  try {
    const name = new Intl.DisplayNames([language.code], { type: "language", fallback: "none" }).of(language.code);
    if (name && name.toLowerCase() !== language.code.toLowerCase()) return name;
  } catch {
    // A code the runtime does not know: the provider's own name below.
  }
  return language.name;
}

export class LanguageList {
  private list: TranslationLanguage[] | null = null;
  private fetchedAt = 0;
  private failedAt = 0;
  private pending: Promise<TranslationLanguage[]> | null = null;

  constructor(
    private readonly provider: string,
    private readonly fetchList: () => Promise<ProviderLanguage[]>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The list as kept (refreshed in the background when old); waits only when none was ever fetched. */
  get(): Promise<TranslationLanguage[]> {
    const now = this.now();
    if (this.list) {
      if (now - this.fetchedAt > FRESH_FOR_MS && now - this.failedAt > RETRY_AFTER_FAILURE_MS) void this.refresh();
      return Promise.resolve(this.list);
    }
    if (this.pending) return this.pending;
    if (now - this.failedAt < RETRY_AFTER_FAILURE_MS) return Promise.resolve([]);
    return this.refresh();
  }

  private refresh(): Promise<TranslationLanguage[]> {
    this.pending ??= this.fetchList()
      .then((languages) => {
        const seen = new Set<string>();
        const named = languages.filter((language) => !seen.has(language.code) && seen.add(language.code)).map((language) => ({ code: language.code, name: nameInItself(language) }));
        if (named.length === 0) throw new Error(`${this.provider} listed no languages`);
        this.list = named;
        this.fetchedAt = this.now();
        return named;
      })
      .catch((error: unknown) => {
        this.failedAt = this.now();
        logError("The translation provider's language list could not be fetched", error, { provider: this.provider });
        return this.list ?? [];
      })
      .finally(() => {
        this.pending = null;
      });
    return this.pending;
  }
}
