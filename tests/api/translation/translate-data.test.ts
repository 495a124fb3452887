import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { and, eq, isNotNull } from "drizzle-orm";
import { formTranslationOverrides, organisations, reportForms } from "../../../db/schema/index.ts";
import { sha256Hex } from "../../../api/lib/tokens.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { sanitiseRichText } from "../../../api/lib/rich-text-sanitiser.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { startTranslationServer, type TestTranslationServer } from "../../helpers/translation-server.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { listedFormName } from "../../../api/shared/translation.ts";
import { updateOrganisations } from "../../helpers/organisations.ts";
import { anonymous, demoStaff, type DemoStaff } from "../../helpers/session.ts";

const TRANSLATE = `query ($input: TranslateDataInput!, $lang: String!) {
  translateData(input: $input, lang: $lang) { total list { name defaultText format originalText translatedText } }
}`;

interface Item {
  name: string;
  defaultText: string;
  format: "HTML" | "Text";
  originalText: string;
  translatedText: string | null;
}
type Answer = { data?: { translateData: { total: number; list: Item[] } }; errors?: { message: string; extensions?: { code?: string } }[] };

let provider: TestTranslationServer;
let server: TestServer;
let staff: DemoStaff;
let demoId: string;
let northwindId: string;

beforeAll(async () => {
  provider = await startTranslationServer();
  server = await startTestServer({ env: { TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: provider.url } });
  await seedDemo(server.db);
  await updateOrganisations(server, eq(organisations.slug, "demo"), { enableFormTranslations: true });
  const rows = await server.db.select({ id: organisations.id, slug: organisations.slug }).from(organisations);
  demoId = rows.find((row) => row.slug === "demo")!.id;
  northwindId = rows.find((row) => row.slug === "northwind")!.id;
  staff = await demoStaff(server);
});
afterAll(async () => {
  await server.stop();
  await provider.stop();
});
beforeEach(() => provider.reset());

const reporter = () => new ReporterClient(server, "demo.localhost");
const ask = (input: Record<string, unknown>, lang: string, client: { gql: ReporterClient["gql"] } = reporter()) => client.gql(TRANSLATE, { input, lang }) as Promise<Answer>;

describe("translateData", () => {
  test("a visitor reads the organisation's texts and a form's questions and options translated, and only those texts reach the provider", async () => {
    const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
    const answer = await ask({ organisationID: demoId, reportFormID: form.id }, "de");
    expect(answer.errors).toBeUndefined();
    const { list, total } = answer.data!.translateData;
    expect(total).toBe(list.length);
    const byName = new Map(list.map((item) => [item.name, item]));
    expect(byName.get("organisation.generalEnquiryLabel")).toEqual({ name: "organisation.generalEnquiryLabel", defaultText: "Ask a Question", format: "Text", originalText: "Ask a Question", translatedText: "[de] Ask a Question" });
    expect(byName.get("form.name")?.translatedText).toBe("[de] Workplace Misconduct Report");
    const question = widgets.find((widget) => widget.title.trim() !== "")!;
    expect(byName.get(`widget.${question.id}.title`)?.translatedText).toBe(`[de] ${question.title}`);
    const choice = widgets.find((widget) => widget.answers.length > 0)!;
    expect(byName.get(`widget.${choice.id}.answer.0`)?.translatedText).toBe(`[de] ${choice.answers[0]}`);
    expect(list.every((item) => item.translatedText !== null)).toBe(true);
    // What the provider received is exactly the organisation's texts, nothing else.
    expect(new Set(provider.texts())).toEqual(new Set(list.map((item) => item.originalText)));
  });

  test("texts a client sends are never translated: unknown names are left out and defaultText only comes back", async () => {
    const reporterWords = "My manager, J. Smith, took the cash box on Friday";
    const answer = await ask({ organisationID: demoId, items: [{ name: "organisation.generalEnquiryLabel", defaultText: reporterWords, format: "Text" }, { name: "answer.1", defaultText: reporterWords }] }, "fr");
    expect(answer.data!.translateData.list).toEqual([
      { name: "organisation.generalEnquiryLabel", defaultText: reporterWords, format: "Text", originalText: "Ask a Question", translatedText: "[fr] Ask a Question" },
    ]);
    expect(provider.texts()).toEqual(["Ask a Question"]);
  });

  test("a form is translated once per language: the second request makes no provider call", async () => {
    const { form } = await demoForm(server, "demo", "Workplace Misconduct Report");
    const first = await ask({ organisationID: demoId, reportFormID: form.id }, "es");
    expect(provider.received.length).toBeGreaterThan(0);
    provider.reset();
    const second = await ask({ organisationID: demoId, reportFormID: form.id }, "es");
    expect(second.data).toEqual(first.data!);
    expect(provider.received).toHaveLength(0);
  });

  test("'do not translate' parts come back verbatim, inside markup the page can show", async () => {
    const { form } = await demoForm(server, "demo", "Workplace Misconduct Report");
    const welcome = sanitiseRichText('<h2>Before you start</h2><p>Contact <span translate="no">SafeCall Hotline</span> or <a href="https://example.org">our office</a>.</p>');
    await server.db.update(reportForms).set({ welcomeMessageContent: welcome }).where(eq(reportForms.id, form.id));
    const answer = await ask({ organisationID: demoId, reportFormID: form.id, items: [{ name: "form.welcomeMessageContent" }] }, "ja");
    const [item] = answer.data!.translateData.list;
    expect(item!.format).toBe("HTML");
    expect(item!.translatedText).toBe('<h2>[ja] Before you start</h2><p>[ja] Contact <span translate="no">SafeCall Hotline</span>[ja]  or <a href="https://example.org" rel="noopener noreferrer" target="_blank">[ja] our office</a>[ja] .</p>');
    expect(sanitiseRichText(item!.translatedText!)).toBe(item!.translatedText!);
    expect(provider.texts().join("")).not.toContain("SafeCall");
  });

  test("a reviewed override of today's original comes first; one written against an older text, or kept as machine text, does not", async () => {
    const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
    const [first, second, third] = widgets.filter((widget) => widget.title.trim() !== "");
    await server.db.insert(formTranslationOverrides).values([
      { formId: form.id, targetLanguage: "fr", name: `widget.${first!.id}.title`, sourceHash: sha256Hex(first!.title), sourceText: first!.title, translatedText: "Question revue", reviewed: true },
      { formId: form.id, targetLanguage: "fr", name: `widget.${second!.id}.title`, sourceHash: sha256Hex("an older wording"), sourceText: "an older wording", translatedText: "Ancienne traduction" },
      { formId: form.id, targetLanguage: "fr", name: `widget.${third!.id}.title`, sourceHash: sha256Hex(third!.title), sourceText: third!.title, translatedText: null, reviewed: true },
    ]);
    const names = [first!, second!, third!].map((widget) => ({ name: `widget.${widget.id}.title` }));
    const list = (await ask({ organisationID: demoId, reportFormID: form.id, items: names }, "fr")).data!.translateData.list;
    expect(list.map((item) => item.translatedText)).toEqual(["Question revue", `[fr] ${second!.title}`, `[fr] ${third!.title}`]);
    expect(provider.texts()).not.toContain(first!.title);
  });

  test("a provider that fails or is down leaves every original with translatedText null, and no error", async () => {
    for (const [mode, lang] of [["error", "ar"], ["down", "uk"]] as const) {
      provider.setMode(mode);
      const answer = await ask({ organisationID: demoId }, lang);
      expect(answer.errors).toBeUndefined();
      const { list } = answer.data!.translateData;
      expect(list.length).toBeGreaterThan(0);
      expect(list.every((item) => item.translatedText === null && item.originalText !== "")).toBe(true);
    }
  });

  test("a secured form still locked translates its messages but none of its questions", async () => {
    const { form } = await demoForm(server, "demo", "Confidential Finance Concern");
    const names = (await ask({ organisationID: demoId, reportFormID: form.id }, "de")).data!.translateData.list.map((item) => item.name);
    expect(names).toContain("form.name");
    expect(names.filter((name) => name.startsWith("widget."))).toEqual([]);
  });

  test("the organisation page's form names: every form it lists, named by the form's id, and no other form", async () => {
    const listed = await server.db
      .select({ id: reportForms.id, name: reportForms.name })
      .from(reportForms)
      .where(and(eq(reportForms.organisationId, demoId), eq(reportForms.type, "Custom"), eq(reportForms.status, "Active"), eq(reportForms.archived, false), isNotNull(reportForms.deployedBuildId)));
    expect(listed.length).toBeGreaterThan(1);
    const { list } = (await ask({ organisationID: demoId }, "de")).data!.translateData;
    const names = list.filter((item) => item.name.startsWith("organisation.form."));
    expect(new Set(names.map((item) => [item.name, item.translatedText].join(" = ")))).toEqual(new Set(listed.map((form) => `${listedFormName(form.id)} = [de] ${form.name}`)));
    // A form's own texts belong to its page, not to the organisation's.
    expect(list.some((item) => item.name.startsWith("form.") || item.name.startsWith("widget."))).toBe(false);
  });

  test("a listed form's name asked by hand: another organisation's form is left out, and only the form's own name reaches the provider", async () => {
    const { form } = await demoForm(server, "demo", "Workplace Misconduct Report");
    const [northwindForm] = await server.db.select({ id: reportForms.id }).from(reportForms).where(eq(reportForms.organisationId, northwindId)).limit(1);
    const reporterWords = "<img src=x onerror=alert(1)> my manager";
    const items = [
      { name: listedFormName(northwindForm!.id) },
      { name: listedFormName(form.id), defaultText: reporterWords, format: "HTML" },
      { name: listedFormName("../../etc/passwd") },
      { name: "organisation.form..name" },
    ];
    const answer = await ask({ organisationID: demoId, items }, "ja");
    expect(answer.data!.translateData.list).toEqual([
      { name: listedFormName(form.id), defaultText: reporterWords, format: "Text", originalText: form.name, translatedText: `[ja] ${form.name}` },
    ]);
    expect(provider.texts()).toEqual([form.name]);
  });

  test("a name staff reviewed for a form reads the same on the organisation page", async () => {
    const { form } = await demoForm(server, "demo", "Workplace Misconduct Report");
    await server.db
      .insert(formTranslationOverrides)
      .values({ formId: form.id, targetLanguage: "zh-Hans", name: "form.name", sourceHash: sha256Hex(form.name), sourceText: form.name, translatedText: "Segnalazione sul posto di lavoro", reviewed: true });
    const answer = await ask({ organisationID: demoId, items: [{ name: listedFormName(form.id) }] }, "zh-Hans");
    expect(answer.data!.translateData.list[0]?.translatedText).toBe("Segnalazione sul posto di lavoro");
    expect(provider.texts()).not.toContain(form.name);
  });

  test("a reporter in the follow-up area reads the form's name and its message for where the report stands", async () => {
    const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
    await server.db.update(reportForms).set({ assignedToSupportMessage: "<p>A case officer is on it.</p>" }).where(eq(reportForms.id, form.id));
    const credentials = await submitReport(reporter(), form.id, widgets);
    const followUp = reporter();
    expect((await followUp.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword })).status).toBe(200);
    const items = [{ name: "form.name" }, { name: "form.assignedToSupportMessage" }];
    const answer = await ask({ organisationID: demoId, reportFormID: form.id, items }, "de", followUp);
    expect(answer.data!.translateData.list.map((item) => item.translatedText)).toEqual([`[de] ${form.name}`, "<p>[de] A case officer is on it.</p>"]);
  });

  test("staff on the console's host may read it too", async () => {
    const answer = await ask({ organisationID: demoId, items: [{ name: "organisation.generalEnquiryLabel" }] }, "de", staff.member);
    expect(answer.data!.translateData.list[0]!.translatedText).toBe("[de] Ask a Question");
  });
});

describe("translateData refuses", () => {
  const refusal = async (input: Record<string, unknown>, lang: string, client?: { gql: ReporterClient["gql"] }) => {
    const answer = await ask(input, lang, client);
    expect(answer.data ?? null).toBeNull();
    return { message: answer.errors![0]!.message, code: answer.errors![0]!.extensions?.code };
  };

  test("an organisation that has translations off", async () => {
    const northwind = new ReporterClient(server, "northwind.localhost");
    expect(await refusal({ organisationID: northwindId }, "de", northwind)).toEqual({ message: "This organisation does not offer translated forms.", code: "FORBIDDEN" });
  });

  test("another organisation's form, or another organisation on this host", async () => {
    const [northwindForm] = await server.db.select({ id: reportForms.id }).from(reportForms).where(eq(reportForms.organisationId, northwindId)).limit(1);
    expect(await refusal({ organisationID: demoId, reportFormID: northwindForm!.id }, "de")).toEqual({ message: "Report Form was not found or not longer exists.", code: "NOT_FOUND" });
    expect(await refusal({ organisationID: northwindId }, "de")).toEqual({ message: "Organisation was not found or is currently suspended.", code: "NOT_FOUND" });
    expect((await refusal({ organisationID: "not-an-id" }, "de")).code).toBe("NOT_FOUND");
    expect(provider.received).toHaveLength(0);
  });

  test("a language the provider does not offer, or the form's own", async () => {
    expect(await refusal({ organisationID: demoId }, "xx")).toEqual({ message: "This language is not available for translation.", code: "BAD_USER_INPUT" });
    expect(await refusal({ organisationID: demoId }, "en")).toEqual({ message: "The form is already written in this language.", code: "BAD_USER_INPUT" });
    expect((await refusal({ organisationID: demoId }, "<script>")).code).toBe("BAD_USER_INPUT");
  });

  test("oversized input, before anything is looked up", async () => {
    const many = Array.from({ length: 5_001 }, (_, index) => ({ name: `widget.${index}.title` }));
    expect(await refusal({ organisationID: demoId, items: many }, "de")).toEqual({ message: "Ask for at most 5000 texts at once", code: "BAD_USER_INPUT" });
    expect((await refusal({ organisationID: demoId, items: [{ name: "x".repeat(201) }] }, "de")).code).toBe("BAD_USER_INPUT");
    expect((await refusal({ organisationID: demoId }, "de".repeat(20))).code).toBe("BAD_USER_INPUT");
    expect(provider.received).toHaveLength(0);
  });
});

describe("translationLanguages", () => {
  test("staff read the provider's languages, each named in itself", async () => {
    const answer = await staff.member.gql<{ translationLanguages: { code: string; name: string }[] }>("{ translationLanguages { code name } }");
    expect(answer.data!.translationLanguages).toContainEqual({ code: "de", name: "Deutsch" });
  });

  test("anyone else is refused", async () => {
    const answer = await anonymous(server).gql("{ translationLanguages { code name } }");
    expect(answer.errors![0]!.extensions?.code).toBe("UNAUTHENTICATED");
    const asReporter = await reporter().gql("{ translationLanguages { code name } }");
    expect(asReporter.errors![0]!.extensions?.code).toBe("UNAUTHENTICATED");
  });
});
