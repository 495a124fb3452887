import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { organisations } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { loginAs, type StaffClient } from "../../helpers/session.ts";
import { startTranslationServer, type TestTranslationServer } from "../../helpers/translation-server.ts";
import { formInput, Q, type Data } from "../forms/form-api.ts";

/**
 * The Translations tab's machine text comes from the configured provider (a LibreTranslate-protocol
 * server on loopback here), from the organisation's form language, and only once the organisation
 * has turned translations on.
 */

let provider: TestTranslationServer;
let server: TestServer;
let owner: StaffClient;
let form: Data;
let demoId: string;

const LIST = `query ($id: ID!, $l: String!) { reportFormTranslations(reportFormID: $id, lang: $l) { translationsEnabled providerConfigured items { name originalText machineText overrideText } } }`;
const UPDATE = `mutation ($input: ReportFormTranslationUpdateInput!) { reportFormTranslationUpdate(input: $input) { machineText overrideText reviewed } }`;
const WELCOME = '<p>Hello from <span translate="no">Lantern</span></p>';

beforeAll(async () => {
  provider = await startTranslationServer();
  server = await startTestServer({ env: { TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: provider.url } });
  await seedDemo(server.db);
  owner = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
  const created = await owner.gql<any>(Q.create, { input: formInput("Machine form", { welcomeMessageContent: WELCOME }) });
  form = created.data!.reportFormCreate;
  demoId = form.organisationID;
}, 60_000);
afterAll(async () => {
  await server.stop();
  await provider.stop();
});

const list = async (lang: string) => (await owner.gql<any>(LIST, { id: form.id, l: lang })).data!.reportFormTranslations;
const machineOf = (view: Data, name: string) => view.items.find((item: Data) => item.name === name).machineText;

test("while the organisation has translations off, nothing is sent to the provider and there is no machine text", async () => {
  const view = await list("de");
  expect(view).toMatchObject({ translationsEnabled: false, providerConfigured: true });
  expect(view.items.every((item: Data) => item.machineText === null)).toBe(true);
  expect(provider.texts()).toEqual([]);
});

test("with translations on, every text has the provider's translation from the form language, 'do not translate' kept", async () => {
  await server.db.update(organisations).set({ enableFormTranslations: true, formLanguage: "en" }).where(eq(organisations.id, demoId));
  const view = await list("de");
  expect(machineOf(view, "form.name")).toBe("[de] Machine form");
  expect(machineOf(view, `widget.${form.currentBuild.widgets[1].id}.title`)).toBe("[de] Did it happen at work?");
  expect(machineOf(view, "form.welcomeMessageContent")).toBe('<p>[de] Hello from <span translate="no">Lantern</span></p>');
  expect(provider.received.every((request) => request.source === "en" && request.target === "de")).toBe(true);
});

test("an override is answered beside the machine text it replaces", async () => {
  const answer = await owner.gql<any>(UPDATE, { input: { reportFormID: form.id, lang: "de", name: "form.name", translatedText: "Maschinenformular", reviewed: true } });
  expect(answer.data!.reportFormTranslationUpdate).toEqual({ machineText: "[de] Machine form", overrideText: "Maschinenformular", reviewed: true });
});

test("a provider that is down leaves the machine text empty, never a broken page", async () => {
  provider.setMode("down");
  const view = await list("ja");
  expect(view.items.length).toBeGreaterThan(0);
  expect(view.items.every((item: Data) => item.machineText === null)).toBe(true);
  provider.setMode("up");
});
