import { afterAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { fakeHtmlTranslation, fakeTranslation } from "../../helpers/translation-server.ts";

/**
 * DeepL's and Google's protocols, spoken by small servers on loopback: each checks the key the way
 * its service does, records what it received and "translates" as the LibreTranslate test server.
 */

interface Received {
  body: Record<string, unknown>;
  authorization: string | null;
  key: string | null;
}

function loopback(handle: (request: Request, url: URL, received: Received[]) => Promise<Response>) {
  const received: Received[] = [];
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => handle(request, new URL(request.url), received) });
  return { url: `http://127.0.0.1:${server.port}`, received, stop: () => server.stop(true) };
}

const translateAs = (texts: string[], html: boolean, target: string) => texts.map((text) => (html ? fakeHtmlTranslation(text, target) : fakeTranslation(text, target)));

const deepl = loopback(async (request, url, received) => {
  if (request.headers.get("authorization") !== "DeepL-Auth-Key deepl-key") return Response.json({ message: "Forbidden" }, { status: 403 });
  if (request.method === "GET" && url.pathname === "/v2/languages" && url.searchParams.get("type") === "target") {
    return Response.json([{ language: "DE", name: "German" }, { language: "PT-BR", name: "Portuguese (Brazilian)" }, { language: "ZH-HANS", name: "Chinese (simplified)" }]);
  }
  if (request.method !== "POST" || url.pathname !== "/v2/translate") return Response.json({ message: "Not found" }, { status: 404 });
  const body = (await request.json()) as Record<string, unknown>;
  received.push({ body, authorization: request.headers.get("authorization"), key: null });
  const target = String(body.target_lang).toLowerCase();
  return Response.json({ translations: translateAs(body.text as string[], body.tag_handling === "html", target).map((text) => ({ detected_source_language: "EN", text })) });
});

const google = loopback(async (request, url, received) => {
  if (url.searchParams.get("key") !== "google-key") return Response.json({ error: { code: 400, message: "API key not valid" } }, { status: 400 });
  if (request.method === "GET" && url.pathname === "/language/translate/v2/languages") {
    return Response.json({ data: { languages: [{ language: "de", name: "German" }, { language: "yo", name: "Yoruba" }, { language: "haw", name: "Hawaiian" }] } });
  }
  if (request.method !== "POST" || url.pathname !== "/language/translate/v2") return Response.json({ error: { code: 404 } }, { status: 404 });
  const body = (await request.json()) as Record<string, unknown>;
  received.push({ body, authorization: null, key: url.searchParams.get("key") });
  return Response.json({ data: { translations: translateAs(body.q as string[], body.format === "html", String(body.target)).map((translatedText) => ({ translatedText })) } });
});

const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  await deepl.stop();
  await google.stop();
});

async function lanternWith(provider: "deepl" | "google", url: string, key: string) {
  const server = await startTestServer({ env: { TRANSLATION_PROVIDER: provider, TRANSLATION_URL: url, TRANSLATION_API_KEY: key } });
  servers.push(server);
  return server.lantern.services.translator!;
}

const KEPT = '<p>Call <span translate="no">Acme Line</span> today</p>';

describe("DeepL", () => {
  test("lists its target languages in BCP 47 spelling, named in themselves, and translates with the key in the header", async () => {
    const translator = await lanternWith("deepl", deepl.url, "deepl-key");
    expect(translator.selfHosted).toBe(false);
    expect(await translator.languages()).toEqual([
      { code: "de", name: "Deutsch" },
      { code: "pt-BR", name: "Português (Brasil)" },
      { code: "zh-Hans", name: "简体中文" },
    ]);
    expect(await translator.translateOrganisationTexts(["What happened?"], "Text", "en", "pt-BR")).toEqual(["[pt-br] What happened?"]);
    expect(deepl.received.at(-1)!.body).toEqual({ text: ["What happened?"], target_lang: "PT-BR", source_lang: "EN" });
    expect(await translator.translateOrganisationTexts([KEPT], "HTML", "en", "de")).toEqual(['<p>[de] Call <span translate="no">Acme Line</span>[de]  today</p>']);
    expect(deepl.received.at(-1)!.body.tag_handling).toBe("html");
  });

  test("a wrong key leaves texts untranslated and reporters' words refused", async () => {
    const translator = await lanternWith("deepl", deepl.url, "wrong-key");
    expect(await translator.languages()).toEqual([]);
    expect(await translator.translateOrganisationTexts(["Who?"], "Text", "en", "de")).toEqual([null]);
    expect(translator.translateReporterTexts(["mine"], "de")).rejects.toThrow("runs itself");
  });
});

describe("Google Cloud Translation", () => {
  test("lists its languages named in themselves and translates with the key in the address", async () => {
    const translator = await lanternWith("google", google.url, "google-key");
    expect(translator.selfHosted).toBe(false);
    const languages = await translator.languages();
    expect(languages.find((language) => language.code === "de")?.name).toBe("Deutsch");
    expect(languages.map((language) => language.code)).toEqual(["de", "yo", "haw"]);
    expect(await translator.translateOrganisationTexts(["Where?", KEPT], "HTML", "en", "yo")).toEqual(["[yo] Where?", '<p>[yo] Call <span translate="no">Acme Line</span>[yo]  today</p>']);
    expect(google.received.at(-1)!.body).toMatchObject({ target: "yo", source: "en", format: "html" });
    expect(google.received.at(-1)!.key).toBe("google-key");
  });
});
