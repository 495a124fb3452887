import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { formTranslationOverrides } from "../../../db/schema/index.ts";
import { asInput, code, formInput, message, Q, startFormsServer, type Data, type FormsServer, type Result } from "../forms/form-api.ts";

/**
 * Staff review of a form's translations (docs/decisions/045-translation-review.md): the texts of the
 * build staff edit with the machine's translation and staff's override, who may read and write
 * them, texts changed since their review, and input that must be turned away.
 */

let s: FormsServer;
let form: Data;

const ITEM = "name label format originalText machineText overrideText reviewed reviewedAt changedSince { previousOriginalText previousTranslatedText }";
const LIST = `query ($id: ID!, $l: String!) { reportFormTranslations(reportFormID: $id, lang: $l) { reportFormID lang formLanguage translationsEnabled providerConfigured items { ${ITEM} } } }`;
const UPDATE = `mutation ($input: ReportFormTranslationUpdateInput!) { reportFormTranslationUpdate(input: $input) { ${ITEM} } }`;
const WELCOME = '<p>Hello from <span translate="no">Lantern</span></p>';

const titleOf = (widget: number) => `widget.${form.currentBuild.widgets[widget].id}.title`;
const itemOf = (result: Result, name: string) => result.data?.reportFormTranslations.items.find((item: Data) => item.name === name);
const update = (as: keyof FormsServer["people"], input: Record<string, unknown>) => s.people[as].gql<any>(UPDATE, { input: { reportFormID: form.id, lang: "de", reviewed: false, ...input } }) as Promise<Result>;
const rows = () => s.server.db.select().from(formTranslationOverrides).where(eq(formTranslationOverrides.formId, form.id));

beforeAll(async () => {
  s = await startFormsServer();
  const created = (await s.people.owner.gql<any>(Q.create, { input: formInput("Translated form", { welcomeMessageContent: WELCOME }) })) as Result;
  form = created.data!.reportFormCreate;
}, 60_000);
afterAll(() => s.server.stop());

describe("reportFormTranslations", () => {
  test("allowed: an owner sees every text of the current build, labelled, with no machine text while no provider is set up", async () => {
    const answer = (await s.people.owner.gql<any>(LIST, { id: form.id, l: "de" })) as Result;
    expect(answer.errors).toBeUndefined();
    const view = answer.data!.reportFormTranslations;
    expect(view).toMatchObject({ reportFormID: form.id, lang: "de", formLanguage: "en", translationsEnabled: false, providerConfigured: false });
    const names = view.items.map((item: Data) => item.name);
    expect(names).toContain("form.name");
    expect(names).toContain(titleOf(1));
    expect(names).toContain(`widget.${form.currentBuild.widgets[1].id}.answer.1`);
    expect(itemOf(answer, titleOf(1))).toEqual({
      name: titleOf(1),
      label: "Question 2 · Title",
      format: "Text",
      originalText: "Did it happen at work?",
      machineText: null,
      overrideText: null,
      reviewed: false,
      reviewedAt: null,
      changedSince: null,
    });
    expect(itemOf(answer, "form.welcomeMessageContent")).toMatchObject({ format: "HTML", originalText: WELCOME });
  });

  test("allowed: a super admin reviews any organisation's form", async () => {
    const answer = (await s.people.superAdmin.gql<any>(LIST, { id: form.id, l: "fr" })) as Result;
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.reportFormTranslations.items.length).toBeGreaterThan(3);
  });

  test("denied: a member may not read them; another organisation's owner finds no such form", async () => {
    const member = (await s.people.member.gql<any>(LIST, { id: form.id, l: "de" })) as Result;
    expect(code(member)).toBe("FORBIDDEN");
    const stranger = (await s.people.nwOwner.gql<any>(LIST, { id: form.id, l: "de" })) as Result;
    expect(code(stranger)).toBe("NOT_FOUND");
    expect(message(stranger)).toBe("Report Form is not found");
    const anonymous = (await s.people.anonymous.gql<any>(LIST, { id: form.id, l: "de" })) as Result;
    expect(anonymous.data?.reportFormTranslations ?? null).toBeNull();
  });

  test("hostile: a malformed language, or the form's own, is refused with a clear message", async () => {
    for (const bad of ["", "german", "de;drop", "x".repeat(36), "de\u0000"]) {
      const answer = (await s.people.owner.gql<any>(LIST, { id: form.id, l: bad })) as Result;
      expect({ bad, code: code(answer) }).toEqual({ bad, code: "BAD_USER_INPUT" });
    }
    const same = (await s.people.owner.gql<any>(LIST, { id: form.id, l: "EN" })) as Result;
    expect(message(same)).toBe("This is the language the form is written in: choose another to review");
    const nonsense = (await s.people.owner.gql<any>(LIST, { id: "not-an-id", l: "de" })) as Result;
    expect(code(nonsense)).toBe("NOT_FOUND");
  });
});

describe("reportFormTranslationUpdate", () => {
  test("allowed: an admin overrides a translation and marks it reviewed; the list shows it and the audit log records it", async () => {
    const answer = await update("admin", { name: titleOf(1), translatedText: "  Ist es bei der Arbeit passiert?  ", reviewed: true });
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.reportFormTranslationUpdate).toMatchObject({ name: titleOf(1), overrideText: "Ist es bei der Arbeit passiert?", reviewed: true, changedSince: null });
    expect(answer.data!.reportFormTranslationUpdate.reviewedAt).toBeString();
    const listed = (await s.people.owner.gql<any>(LIST, { id: form.id, l: "de" })) as Result;
    expect(itemOf(listed, titleOf(1))).toMatchObject({ overrideText: "Ist es bei der Arbeit passiert?", reviewed: true });
    // Another language is another review.
    const french = (await s.people.owner.gql<any>(LIST, { id: form.id, l: "fr" })) as Result;
    expect(itemOf(french, titleOf(1))).toMatchObject({ overrideText: null, reviewed: false });
    const [entry] = await s.audit(form.id, "TranslationUpdate");
    expect(entry!.metadata).toMatchObject({ name: "Translated form", language: "de", text: titleOf(1), reviewed: true, overridden: true });
  });

  test("allowed: null keeps the machine text and the review can be taken back", async () => {
    const answer = await update("owner", { name: titleOf(1), translatedText: null, reviewed: false });
    expect(answer.data!.reportFormTranslationUpdate).toMatchObject({ overrideText: null, reviewed: false, reviewedAt: null });
    expect((await rows()).filter((row) => row.name === titleOf(1))).toHaveLength(1);
  });

  test("rich text is cleaned like the original and keeps its 'do not translate' spans", async () => {
    const answer = await update("owner", { name: "form.welcomeMessageContent", translatedText: '<p onclick="x()">Hallo von <span translate="no">Lantern</span><script>alert(1)</script></p>', reviewed: true });
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.reportFormTranslationUpdate.overrideText).toBe('<p>Hallo von <span translate="no">Lantern</span></p>');
  });

  test("an original edited since its review shows what was reviewed, until it is reviewed again", async () => {
    await update("owner", { name: titleOf(1), translatedText: "Bei der Arbeit?", reviewed: true });
    const build = form.currentBuild;
    const widgets = asInput(build);
    widgets[1].title = "Did it happen at your workplace?";
    const saved = (await s.people.owner.gql<any>(Q.update, { id: form.id, input: { name: "Translated form", widgets, welcomeMessageContent: WELCOME, baseRevision: build.revision } })) as Result;
    expect(saved.errors).toBeUndefined();
    form = saved.data!.reportFormUpdate;
    const listed = (await s.people.owner.gql<any>(LIST, { id: form.id, l: "de" })) as Result;
    expect(itemOf(listed, titleOf(1))).toMatchObject({
      originalText: "Did it happen at your workplace?",
      overrideText: null,
      reviewed: false,
      changedSince: { previousOriginalText: "Did it happen at work?", previousTranslatedText: "Bei der Arbeit?" },
    });
    const again = await update("owner", { name: titleOf(1), translatedText: "Am Arbeitsplatz?", reviewed: true });
    expect(again.data!.reportFormTranslationUpdate).toMatchObject({ overrideText: "Am Arbeitsplatz?", reviewed: true, changedSince: null });
  });

  test("denied: a member may not write; another organisation's owner finds no such form; nothing is written", async () => {
    const before = await rows();
    const member = await update("member", { name: titleOf(1), translatedText: "Nein", reviewed: true });
    expect(code(member)).toBe("FORBIDDEN");
    const stranger = await update("nwOwner", { name: titleOf(1), translatedText: "Nein", reviewed: true });
    expect(code(stranger)).toBe("NOT_FOUND");
    expect(await rows()).toEqual(before);
  });

  test("hostile: NUL, a megabyte, a text too long for its field, an unknown name and a bad language are refused; nothing is written", async () => {
    const before = await rows();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: titleOf(1), translatedText: "Hallo\u0000" }, /NUL|not allowed/i],
      [{ name: "form.welcomeMessageContent", translatedText: `<p>${"x".repeat(1_000_000)}</p>` }, /at most/i],
      [{ name: `widget.${form.currentBuild.widgets[1].id}.answer.0`, translatedText: "x".repeat(201) }, /at most 200/i],
      [{ name: "widget.nope.title", translatedText: "Hallo" }, /not part of the form/],
      [{ name: "organisation.portalWelcomeMessageContent", translatedText: "Hallo" }, /not part of the form/],
      [{ name: "x".repeat(150), translatedText: "Hallo" }, /not part of the form/],
      [{ name: "x".repeat(5000), translatedText: "Hallo" }, /at most 200/],
      [{ name: titleOf(1), translatedText: "x".repeat(1001) }, /at most 1000/],
      [{ name: titleOf(1), lang: "../de" }, /language code/],
      [{ name: titleOf(1), lang: "en" }, /language the form is written in/],
    ];
    for (const [input, expected] of cases) {
      const answer = await update("owner", input);
      expect({ input: Object.keys(input), code: code(answer) }).toEqual({ input: Object.keys(input), code: "BAD_USER_INPUT" });
      expect(message(answer)).toMatch(expected);
    }
    expect(await rows()).toEqual(before);
    const elsewhere = await s.people.owner.gql<any>(UPDATE, { input: { reportFormID: crypto.randomUUID(), lang: "de", name: "form.name", reviewed: true } });
    expect(code(elsewhere as Result)).toBe("NOT_FOUND");
    expect(await s.server.db.select().from(formTranslationOverrides).where(and(eq(formTranslationOverrides.formId, form.id), eq(formTranslationOverrides.targetLanguage, "en")))).toEqual([]);
  });
});
