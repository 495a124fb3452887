import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { ConfigError, parseConfig } from "../../../api/config.ts";
import { startTestServer } from "../../helpers/server.ts";
import { startTranslationServer } from "../../helpers/translation-server.ts";
import { anonymous } from "../../helpers/session.ts";
import { updateOrganisations } from "../../helpers/organisations.ts";
import { createOrganisation } from "../../factories/users.ts";
import { organisations } from "../../../db/schema/index.ts";

describe("translation provider settings", () => {
  test("unset, there is no provider", () => {
    expect(parseConfig({}).translation).toBeNull();
  });

  test("a LibreTranslate server at its address, with an optional key; DeepL and Google at their public addresses with a key", () => {
    expect(parseConfig({ TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: "http://translate.internal:5000/" }).translation).toEqual({ provider: "libretranslate", url: "http://translate.internal:5000", apiKey: null });
    expect(parseConfig({ TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: "http://127.0.0.1:5000", TRANSLATION_API_KEY: " key " }).translation?.apiKey).toBe("key");
    expect(parseConfig({ TRANSLATION_PROVIDER: "deepl", TRANSLATION_API_KEY: "deepl-key" }).translation).toEqual({ provider: "deepl", url: "https://api.deepl.com", apiKey: "deepl-key" });
    expect(parseConfig({ TRANSLATION_PROVIDER: "google", TRANSLATION_API_KEY: "google-key" }).translation?.url).toBe("https://translation.googleapis.com");
  });

  test("an unknown provider, a missing address or key, or a key without a provider stops the start with one line", () => {
    expect(() => parseConfig({ TRANSLATION_PROVIDER: "bing" })).toThrow("must be libretranslate, deepl or google");
    expect(() => parseConfig({ TRANSLATION_PROVIDER: "libretranslate" })).toThrow("TRANSLATION_URL is required for libretranslate");
    expect(() => parseConfig({ TRANSLATION_PROVIDER: "deepl" })).toThrow("TRANSLATION_API_KEY is required for deepl");
    expect(() => parseConfig({ TRANSLATION_API_KEY: "orphan" })).toThrow("TRANSLATION_PROVIDER is required");
    expect(() => parseConfig({ TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: "file:///etc/passwd" })).toThrow(ConfigError);
  });
});

const TRANSLATE = `query ($input: TranslateDataInput!) { translateData(input: $input, lang: "de") { total } }`;

describe("translateData without a usable provider", () => {
  test("with none configured, it says translation is not set up", async () => {
    const lantern = await startTestServer();
    try {
      expect(lantern.lantern.services.translator).toBeNull();
      const answer = await anonymous(lantern).gql(TRANSLATE, { input: { organisationID: crypto.randomUUID() } });
      expect(answer.errors![0]).toMatchObject({ message: "Form translation is not set up on this server.", extensions: { code: "UNAVAILABLE" } });
    } finally {
      await lantern.stop();
    }
  });

  test("with an address nothing answers at, it says translations are not available right now (no 500)", async () => {
    const closed = await startTranslationServer();
    await closed.stop();
    const lantern = await startTestServer({ env: { TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: closed.url } });
    try {
      const organisation = await createOrganisation(lantern.db);
      await updateOrganisations(lantern, eq(organisations.id, organisation.id), { enableFormTranslations: true });
      const response = await lantern.fetch("/api/gql/query", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query: TRANSLATE, variables: { input: { organisationID: organisation.id } } }) });
      expect(response.status).not.toBe(500);
      const answer = (await response.json()) as { errors: { message: string }[] };
      expect(answer.errors[0]!.message).toBe("Translations are not available right now. Please try again later.");
    } finally {
      await lantern.stop();
    }
  });
});
