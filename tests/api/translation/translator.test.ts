import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { sanitiseRichText } from "../../../api/lib/rich-text-sanitiser.ts";
import type { Translator } from "../../../api/modules/translation/translator.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { startTranslationServer, type TestTranslationServer } from "../../helpers/translation-server.ts";

let provider: TestTranslationServer;
let server: TestServer;
let translator: Translator;

beforeAll(async () => {
  provider = await startTranslationServer({ apiKey: "operator-key" });
  server = await startTestServer({ env: { TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: provider.url, TRANSLATION_API_KEY: "operator-key" } });
  translator = server.lantern.services.translator!;
});
afterAll(async () => {
  await server.stop();
  await provider.stop();
});
beforeEach(() => provider.reset());

describe("the LibreTranslate translator", () => {
  test("is wired at boot, counts as self-hosted on the operator's own address, and names each language in itself", async () => {
    expect(translator.provider).toBe("libretranslate");
    expect(translator.selfHosted).toBe(true);
    const languages = await translator.languages();
    expect(languages.find((language) => language.code === "de")?.name).toBe("Deutsch");
    expect(languages.find((language) => language.code === "fr")?.name).toBe("français");
    expect(languages.map((language) => language.code)).toContain("zh-Hans");
    // Asked once (at boot), kept since.
    const calls = provider.languageCalls;
    await translator.languages();
    expect(provider.languageCalls).toBe(calls);
  });

  test("translates organisation texts once: the second request is answered from the cache", async () => {
    const texts = ["What happened?", "Where did it happen?", "What happened?"];
    expect(await translator.translateOrganisationTexts(texts, "Text", "en", "de")).toEqual(["[de] What happened?", "[de] Where did it happen?", "[de] What happened?"]);
    expect(provider.texts()).toEqual(["What happened?", "Where did it happen?"]);
    expect(provider.received[0]!.apiKey).toBe("operator-key");
    provider.reset();
    expect(await translator.translateOrganisationTexts(texts, "Text", "en", "de")).toEqual(["[de] What happened?", "[de] Where did it happen?", "[de] What happened?"]);
    expect(provider.received).toHaveLength(0);
    // Another language is another translation.
    expect(await translator.translateOrganisationTexts(["What happened?"], "Text", "en", "fr")).toEqual(["[fr] What happened?"]);
    expect(provider.texts()).toEqual(["What happened?"]);
  });

  test("two pages asking at once for the same new texts send them once", async () => {
    provider.setDelay(200);
    const texts = ["When did it start?", "Is it still going on?"];
    const [first, second] = await Promise.all([translator.translateOrganisationTexts(texts, "Text", "en", "ar"), translator.translateOrganisationTexts([...texts, "Anything else?"], "Text", "en", "ar")]);
    expect(first).toEqual(["[ar] When did it start?", "[ar] Is it still going on?"]);
    expect(second).toEqual(["[ar] When did it start?", "[ar] Is it still going on?", "[ar] Anything else?"]);
    expect(provider.texts().sort()).toEqual(["Anything else?", "Is it still going on?", "When did it start?"]);
  });

  test("keeps 'do not translate' parts exactly as written, even though the engine translates inside them", async () => {
    const html = sanitiseRichText('<p>Call <span translate="no">Acme Hotline</span> or write to <strong translate="no">Ethics <em>Office</em></strong>.</p>');
    const [translated] = await translator.translateOrganisationTexts([html], "HTML", "en", "de");
    expect(translated).toBe('<p>[de] Call <span translate="no">Acme Hotline</span>[de]  or write to <strong translate="no">Ethics <em>Office</em></strong>[de] .</p>');
    // What was sent carried no marked text at all.
    expect(provider.texts().join("")).not.toContain("Acme Hotline");
    expect(provider.texts().join("")).not.toContain("Ethics");
    expect(sanitiseRichText(translated!)).toBe(translated!);
  });

  test("answers markup the reporters' renderer knows, whatever the provider sends back", async () => {
    const [translated] = await translator.translateOrganisationTexts(['<p>Read <a href="https://example.org/policy" rel="noopener noreferrer" target="_blank">the policy</a></p>'], "HTML", "en", "ja");
    expect(translated).toBe('<p>[ja] Read <a href="https://example.org/policy" rel="noopener noreferrer" target="_blank">[ja] the policy</a></p>');
  });

  test("a provider failure leaves nulls for the texts it could not translate, caches nothing, and the next try succeeds", async () => {
    provider.setMode("error");
    expect(await translator.translateOrganisationTexts(["Who was involved?"], "Text", "en", "es")).toEqual([null]);
    provider.setMode("down");
    expect(await translator.translateOrganisationTexts(["<p>Who was involved?</p>"], "HTML", "en", "es")).toEqual([null]);
    provider.setMode("up");
    expect(await translator.translateOrganisationTexts(["Who was involved?"], "Text", "en", "es")).toEqual(["[es] Who was involved?"]);
  });

  test("large forms go in bounded batches", async () => {
    const texts = Array.from({ length: 120 }, (_, index) => `Question number ${index}`);
    const translated = await translator.translateOrganisationTexts(texts, "Text", "en", "uk");
    expect(translated).toEqual(texts.map((text) => `[uk] ${text}`));
    expect(provider.received.length).toBeGreaterThan(2);
    expect(Math.max(...provider.received.map((request) => request.q.length))).toBeLessThanOrEqual(50);
  });

  test("a reporter's words are translated with the source detected, and never cached", async () => {
    expect(await translator.translateReporterTexts(["My manager took the money"], "de")).toEqual(["[de] My manager took the money"]);
    expect(provider.received[0]!.source).toBe("auto");
    provider.reset();
    await translator.translateReporterTexts(["My manager took the money"], "de");
    expect(provider.texts()).toEqual(["My manager took the money"]);
  });
});

describe("a translator that cannot reach its provider", () => {
  test("lists no languages and leaves every text untranslated, without throwing", async () => {
    const closed = await startTranslationServer();
    const url = closed.url;
    await closed.stop();
    const lantern = await startTestServer({ env: { TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: url } });
    try {
      const unreachable = lantern.lantern.services.translator!;
      expect(await unreachable.languages()).toEqual([]);
      expect(await unreachable.translateOrganisationTexts(["Hello", "<p>Hi</p>"], "Text", "en", "de")).toEqual([null, null]);
    } finally {
      await lantern.stop();
    }
  });

  test("the public libretranslate.com is not self-hosted, so reporters' words are refused", async () => {
    const hosted = await startTestServer({ env: { TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: "https://libretranslate.com" } });
    try {
      const refusing = hosted.lantern.services.translator!;
      expect(refusing.selfHosted).toBe(false);
      expect(refusing.translateReporterTexts(["anything"], "de")).rejects.toThrow("translation server the organisation runs itself");
    } finally {
      await hosted.stop();
    }
  });
});
