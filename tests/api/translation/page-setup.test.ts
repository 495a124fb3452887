import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { organisations } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import type { ReporterTranslationSetup } from "../../../api/shared/translation.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { startTranslationServer, type TestTranslationServer } from "../../helpers/translation-server.ts";
import { demoForm } from "../../helpers/reporter.ts";
import { updateOrganisations } from "../../helpers/organisations.ts";

/** The JSON a page carries inline in `<script type="application/json" id="ID">`. */
async function inlineData(server: TestServer, host: string, path: string, id: string): Promise<Record<string, unknown>> {
  const response = await server.fetch(path, { host });
  expect(response.status).toBe(200);
  const html = await response.text();
  const match = new RegExp(`<script[^>]*id="${id}"[^>]*>(.*?)</script>`, "s").exec(html);
  return JSON.parse(match![1]!) as Record<string, unknown>;
}

let provider: TestTranslationServer;
let server: TestServer;

beforeAll(async () => {
  provider = await startTranslationServer();
  server = await startTestServer({ env: { TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: provider.url } });
  await seedDemo(server.db);
  await updateOrganisations(server, eq(organisations.slug, "demo"), { enableFormTranslations: true, formLanguage: "fr" });
});
afterAll(async () => {
  await server.stop();
  await provider.stop();
});

describe("reporter pages carry the language menu inline", () => {
  test("the organisation page and a report page list the organisation's language first, every language named in itself", async () => {
    const { form } = await demoForm(server, "demo", "Workplace Misconduct Report");
    for (const [path, id] of [["/", "lantern-organisation"], [`/report/${form.id}`, "lantern-report-form"]] as const) {
      const setup = (await inlineData(server, "demo.localhost", path, id)).translation as ReporterTranslationSetup;
      expect(setup.sourceLanguage).toBe("fr");
      expect(setup.languages[0]).toEqual({ code: "fr", name: "français" });
      expect(setup.languages).toContainEqual({ code: "de", name: "Deutsch" });
      expect(setup.languages.filter((language) => language.code === "fr")).toHaveLength(1);
    }
  });

  test("an organisation with translations off gets none", async () => {
    const data = await inlineData(server, "northwind.localhost", "/", "lantern-organisation");
    expect(data.translation).toBeNull();
  });
});

describe("a slow provider", () => {
  test("does not hold a page up: without a language list yet, the page comes within about a second, without the menu", async () => {
    const slow = await startTranslationServer();
    slow.setDelay(5_000);
    const lantern = await startTestServer({ env: { TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: slow.url } });
    try {
      await seedDemo(lantern.db);
      await updateOrganisations(lantern, eq(organisations.slug, "demo"), { enableFormTranslations: true });
      const started = performance.now();
      const data = await inlineData(lantern, "demo.localhost", "/", "lantern-organisation");
      expect(performance.now() - started).toBeLessThan(2_500);
      expect(data.translation).toBeNull();
    } finally {
      await lantern.stop();
      await slow.stop();
    }
  });
});
