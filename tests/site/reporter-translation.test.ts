import { describe, expect, test } from "bun:test";
import { visibleWidgetIds, type FormWidget } from "../../api/shared/form-definition.ts";
import { answerText } from "../../site/src/forms/answer-text.ts";
import { optionLabel } from "../../site/src/forms/translated-text.ts";
import { parseReporterForm } from "../../site/src/islands/report-flow/report-data.ts";
import { menuLanguages, readTranslationSetup, textDirection } from "../../site/src/lib/reporter-language.ts";
import { translateForm, translateOrganisationTexts, translateTexts, type Translations } from "../../site/src/lib/translation-apply.ts";

// Applying translations on reporter pages (docs/decisions/044-reporter-language-menu.md): the texts a
// reporter reads change, the values their answers store and conditions compare never do.

const widget = (fields: Partial<FormWidget> & { id: string }): FormWidget => ({ type: "ShortText", title: "", required: false, tooltip: "", caption: "", answers: [], pageName: null, condition: null, ...fields });
const kind = widget({ id: "kind", type: "Radio", title: "What kind of incident?", tooltip: "Pick one", answers: ["Fraud", "Harassment"] });
const details = widget({
  id: "details",
  type: "LongText",
  title: "Who was harassed?",
  caption: "Names are optional",
  condition: { id: "c1", matchType: "All", rules: [{ id: "r1", conditionWidgetID: "kind", conditionAnswer: "Harassment" }] },
});
const section = widget({ id: "s2", type: "Section", title: "Details", pageName: "More" });
const form = parseReporterForm({ id: "f1", name: "Workplace Report", welcomeMessageTitle: "Welcome!", welcomeMessageContent: "<p>Hello</p>", finishMessageTitle: "Thanks", widgets: [kind, section, details] })!;

const german = (texts: Record<string, string | null>): Translations => new Map(Object.entries(texts));
const allGerman: Translations = german({
  "form.name": "[de] Workplace Report",
  "form.welcomeMessageTitle": "[de] Welcome!",
  "form.welcomeMessageContent": "<p>[de] Hello</p>",
  "form.finishMessageTitle": "[de] Thanks",
  "widget.kind.title": "[de] What kind of incident?",
  "widget.kind.tooltip": "[de] Pick one",
  "widget.kind.answer.0": "[de] Fraud",
  "widget.kind.answer.1": "[de] Harassment",
  "widget.s2.title": "[de] Details",
  "widget.s2.pageName": "[de] More",
  "widget.details.title": "[de] Who was harassed?",
  "widget.details.caption": "[de] Names are optional",
});

describe("a form in the reporter's language", () => {
  test("questions, tooltips, captions, page names and messages read translated, marked with their language", () => {
    const { form: shown, missing } = translateForm(form, allGerman, "de");
    expect(missing).toBe(false);
    expect(shown).toMatchObject({ name: "[de] Workplace Report", welcomeMessageTitle: "[de] Welcome!", welcomeMessageContent: "<p>[de] Hello</p>", finishMessageTitle: "[de] Thanks", translatedIn: { lang: "de" } });
    expect(shown.widgets.map((entry) => entry.title)).toEqual(["[de] What kind of incident?", "[de] Details", "[de] Who was harassed?"]);
    expect(shown.widgets[0]).toMatchObject({ tooltip: "[de] Pick one", translatedIn: { lang: "de" } });
    expect(shown.widgets[1]?.pageName).toBe("[de] More");
    expect(shown.widgets[2]?.caption).toBe("[de] Names are optional");
    // Empty texts stay empty: there was nothing to translate, and nothing is missing.
    expect(shown.finishMessageContent).toBe("");
  });

  test("options keep the organisation's texts as their values; only their labels change, so conditions still work", () => {
    const shown = translateForm(form, allGerman, "de").form;
    const radio = shown.widgets[0]!;
    expect(radio.answers).toEqual(["Fraud", "Harassment"]);
    expect(optionLabel(radio, "Harassment")).toBe("[de] Harassment");
    const answers = { kind: ["Harassment"] };
    expect(visibleWidgetIds(shown.widgets, answers).has("details")).toBe(true);
    expect(visibleWidgetIds(shown.widgets, { kind: ["Fraud"] }).has("details")).toBe(false);
    // The review shows what the reporter picked in their language; the stored answer is the original.
    expect(answerText(radio.type, answers.kind, (value) => optionLabel(radio, value))).toBe("[de] Harassment");
    expect(answerText(radio.type, answers.kind)).toBe("Harassment");
  });

  test("a text the provider could not translate stays the original, without a language mark, and the page is told", () => {
    const partly = german({ "widget.kind.title": null, "widget.kind.answer.0": "[de] Fraud" });
    const { form: shown, missing } = translateForm(form, partly, "de");
    expect(missing).toBe(true);
    expect(shown.widgets[0]).toMatchObject({ title: "What kind of incident?", tooltip: "Pick one" });
    expect(shown.widgets[0]?.translatedIn).toBeUndefined();
    expect(shown.widgets[0]?.optionLabels).toEqual(["[de] Fraud", "Harassment"]);
    expect(shown.name).toBe("Workplace Report");
  });

  test("right-to-left languages are marked so", () => {
    expect(translateForm(form, allGerman, "ar").form.widgets[0]).toMatchObject({ translatedIn: { lang: "ar", dir: "rtl" } });
    expect(textDirection("fa-AF")).toBe("rtl");
    expect(textDirection("de")).toBeUndefined();
  });
});

describe("the organisation's texts in the reporter's language", () => {
  test("welcome and enquiry texts are translated; a blank one stays blank", () => {
    const originals = { portalWelcomeMessageContent: "<p>Welcome</p>", generalEnquiryLabel: "", generalEnquiryWelcomeMessageContent: "Ask us" };
    const translations = german({ "organisation.portalWelcomeMessageContent": "<p>[de] Welcome</p>", "organisation.generalEnquiryWelcomeMessageContent": "[de] Ask us" });
    const { texts, attributes, missing } = translateOrganisationTexts(originals, translations, "de");
    expect(texts).toEqual({ portalWelcomeMessageContent: "<p>[de] Welcome</p>", generalEnquiryLabel: "", generalEnquiryWelcomeMessageContent: "[de] Ask us" });
    expect(attributes.generalEnquiryLabel).toBeUndefined();
    expect(attributes.portalWelcomeMessageContent).toEqual({ lang: "de", dir: undefined });
    expect(missing).toBe(false);
  });
});

describe("the organisation page's form names", () => {
  test("each listed form reads in the reporter's language, by its id; one the provider missed stays as written, and the page is told", () => {
    const forms = [
      { id: "f1", name: "Workplace Report" },
      { id: "f2", name: "Finance Concern" },
    ];
    const originals = { portalWelcomeMessageContent: "", generalEnquiryLabel: "", generalEnquiryWelcomeMessageContent: "" };
    const { formNames, missing } = translateOrganisationTexts(originals, german({ "organisation.form.f1.name": "[de] Workplace Report", "organisation.form.f2.name": null }), "de", forms);
    expect(formNames.get("f1")).toEqual({ text: "[de] Workplace Report", translatedIn: { lang: "de", dir: undefined } });
    expect(formNames.get("f2")).toEqual({ text: "Finance Concern", translatedIn: undefined });
    expect(missing).toBe(true);
  });
});

describe("the follow-up area's texts", () => {
  test("the form's name and its message read translated; a missing translation keeps the original, unmarked", () => {
    const originals = new Map([
      ["form.name", "Workplace Report"],
      ["form.reportClosedMessage", "<p>Closed.</p>"],
    ]);
    const all = translateTexts(originals, german({ "form.name": "[de] Workplace Report", "form.reportClosedMessage": "<p>[de] Closed.</p>" }), "he");
    expect(Object.fromEntries(all.texts)).toEqual({
      "form.name": { text: "[de] Workplace Report", translatedIn: { lang: "he", dir: "rtl" } },
      "form.reportClosedMessage": { text: "<p>[de] Closed.</p>", translatedIn: { lang: "he", dir: "rtl" } },
    });
    expect(all.missing).toBe(false);
    const partly = translateTexts(originals, german({ "form.name": "   " }), "de");
    expect(partly.texts.get("form.name")).toEqual({ text: "Workplace Report", translatedIn: undefined });
    expect(partly.missing).toBe(true);
  });
});

describe("the language menu", () => {
  test("lists the organisation's language first, then the others by their own names, each once", () => {
    const setup = readTranslationSetup({
      translation: {
        sourceLanguage: "en",
        languages: [
          { code: "fr", name: "français" },
          { code: "de", name: "Deutsch" },
          { code: "en", name: "English" },
          { code: "de", name: "Deutsch" },
          { code: 5, name: "broken" },
        ],
      },
    })!;
    expect(menuLanguages(setup).map((language) => language.name)).toEqual(["English", "Deutsch", "français"]);
  });

  test("a page without translations, or with an unreadable setup, offers no menu", () => {
    expect(readTranslationSetup({ organisation: {} })).toBeNull();
    expect(readTranslationSetup({ translation: null })).toBeNull();
    expect(readTranslationSetup({ translation: { sourceLanguage: 1, languages: [] } })).toBeNull();
  });
});
