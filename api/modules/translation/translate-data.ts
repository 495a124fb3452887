import { and, eq, inArray } from "drizzle-orm";
import * as v from "valibot";
import { formTranslationOverrides, organisations } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { sanitiseRichText } from "../../lib/rich-text-sanitiser.ts";
import { sha256Hex } from "../../lib/tokens.ts";
import { IdText, parseWith } from "../../lib/validation.ts";
import { ORGANISATION_UNAVAILABLE } from "../../shared/messages.ts";
import { RICH_TEXT_MAX_LENGTH } from "../../shared/rich-text.ts";
import type { TranslationFormat, TranslationItem } from "../../shared/translation.ts";
import { findActiveOrganisation, loadOrganisationPage, type PublicOrganisation } from "../organisations/public.ts";
import { buildWidgets, isUnlocked, reporterBuildId, requirePublishedForm } from "../reporting/forms.ts";
import { formSources, listedFormSources, organisationSources, type TranslationSource } from "./sources.ts";
import type { Translator } from "./translator.ts";

/**
 * translateData (spec: translateData(input, lang)): the organisation's own texts, looked up by name
 * and translated. Clients only name texts; what is sent to a provider always comes from the
 * database (sources.ts), so nothing a reporter typed can reach one. Reviewed overrides come first,
 * then the cache, then the provider; what none of them has comes back with translatedText null.
 */

export const TRANSLATION_MESSAGES = {
  notSetUp: "Form translation is not set up on this server.",
  turnedOff: "This organisation does not offer translated forms.",
  noLanguages: "Translations are not available right now. Please try again later.",
  unknownLanguage: "This language is not available for translation.",
  sameLanguage: "The form is already written in this language.",
} as const;

/** A 200-question form with its options stays well inside; a request beyond is not a page's. */
export const TRANSLATE_DATA_LIMITS = { items: 5_000, name: 200, lang: 35 } as const;

const LANGUAGE_CODE = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8}){0,2}$/;

export const TranslateDataArgs = v.object({
  lang: v.pipe(v.string(), v.trim(), v.maxLength(TRANSLATE_DATA_LIMITS.lang, "Must be a language code"), v.regex(LANGUAGE_CODE, "Must be a language code")),
  input: v.object({
    organisationID: IdText,
    reportFormID: v.nullish(IdText),
    items: v.nullish(
      v.pipe(
        v.array(
          v.object({
            name: v.pipe(v.string(), v.maxLength(TRANSLATE_DATA_LIMITS.name, `Must be at most ${TRANSLATE_DATA_LIMITS.name} characters`)),
            defaultText: v.nullish(v.pipe(v.string(), v.maxLength(RICH_TEXT_MAX_LENGTH, `Must be at most ${RICH_TEXT_MAX_LENGTH} characters`))),
            format: v.nullish(v.string()),
          }),
        ),
        v.maxLength(TRANSLATE_DATA_LIMITS.items, `Ask for at most ${TRANSLATE_DATA_LIMITS.items} texts at once`),
      ),
    ),
  }),
});
export type TranslateDataRequest = v.InferOutput<typeof TranslateDataArgs>;

export interface TranslationList {
  total: number;
  list: TranslationItem[];
}

/**
 * An active organisation this host may speak for: on an organisation's host only that one (as the
 * form calls), elsewhere (the report login's follow-up area) any active organisation.
 */
export async function organisationForHost(ctx: Ctx, id: string): Promise<PublicOrganisation> {
  const hostOrganisation = ctx.host.organisation;
  let organisation: PublicOrganisation | null = null;
  if (ctx.host.kind === "organisation") organisation = hostOrganisation?.id === id ? hostOrganisation : null;
  else if (isUuid(id)) {
    const [row] = await ctx.db.select({ slug: organisations.slug }).from(organisations).where(eq(organisations.id, id)).limit(1);
    organisation = row ? await findActiveOrganisation(ctx.db, row.slug, ctx.services.organisationCache) : null;
  }
  if (!organisation) throw new UserError("NOT_FOUND", ORGANISATION_UNAVAILABLE);
  return organisation;
}

/** The organisation's translation settings; read fresh, so turning translations off takes effect at once. */
export async function translationSettings(ctx: Pick<Ctx, "db">, organisationId: string): Promise<{ enabled: boolean; sourceLanguage: string }> {
  const [row] = await ctx.db
    .select({ enabled: organisations.enableFormTranslations, sourceLanguage: organisations.formLanguage })
    .from(organisations)
    .where(eq(organisations.id, organisationId))
    .limit(1);
  return { enabled: row?.enabled ?? false, sourceLanguage: row?.sourceLanguage ?? "en" };
}

/**
 * Every text the reporter can see where they are: on the organisation page, its texts and the names
 * of the forms it lists; on a form, the organisation's texts and the form's as its build shows them.
 */
async function sourcesFor(ctx: Ctx, organisation: PublicOrganisation, reportFormID: string | null | undefined): Promise<TranslationSource[]> {
  const sources = organisationSources(organisation);
  if (!reportFormID) return [...sources, ...listedFormSources((await loadOrganisationPage(ctx.db, organisation)).forms)];
  const form = await requirePublishedForm(ctx.db, organisation.id, reportFormID);
  // A secured form still locked shows no questions, so none are translated either.
  const widgets = isUnlocked(form, ctx.actor) ? await buildWidgets(ctx.db, await reporterBuildId(ctx.db, form, ctx.actor)) : [];
  const own = formSources(form, widgets).map((source) => ({ ...source, reviewedAs: { formId: form.id, name: source.name } }));
  return [...sources, ...own];
}

/** Staff-reviewed translations into this language, for originals that have not changed since (by the form and name each is reviewed as). */
async function overridesFor(ctx: Ctx, lang: string, wanted: readonly TranslationSource[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const reviewable = wanted.filter((source) => source.reviewedAs);
  if (reviewable.length === 0) return found;
  const rows = await ctx.db
    .select({ formId: formTranslationOverrides.formId, name: formTranslationOverrides.name, sourceHash: formTranslationOverrides.sourceHash, translatedText: formTranslationOverrides.translatedText })
    .from(formTranslationOverrides)
    .where(
      and(
        inArray(formTranslationOverrides.formId, [...new Set(reviewable.map((source) => source.reviewedAs!.formId))]),
        eq(formTranslationOverrides.targetLanguage, lang),
        inArray(formTranslationOverrides.name, [...new Set(reviewable.map((source) => source.reviewedAs!.name))]),
      ),
    );
  const reviewed = new Map(rows.map((row) => [`${row.formId} ${row.name}`, row]));
  for (const source of reviewable) {
    const row = reviewed.get(`${source.reviewedAs!.formId} ${source.reviewedAs!.name}`);
    if (!row || row.translatedText === null || row.translatedText.trim() === "" || row.sourceHash !== sha256Hex(source.text)) continue;
    found.set(source.name, source.format === "HTML" ? sanitiseRichText(row.translatedText) : row.translatedText);
  }
  return found;
}

/** The languages on offer, checked against the one asked for. */
async function checkLanguage(translator: Translator, lang: string, sourceLanguage: string): Promise<void> {
  const languages = await translator.languages();
  if (languages.length === 0) throw new UserError("UNAVAILABLE", TRANSLATION_MESSAGES.noLanguages);
  if (lang === sourceLanguage) throw new UserError("BAD_USER_INPUT", TRANSLATION_MESSAGES.sameLanguage);
  if (!languages.some((language) => language.code === lang)) throw new UserError("BAD_USER_INPUT", TRANSLATION_MESSAGES.unknownLanguage);
}

export async function translateData(ctx: Ctx, raw: unknown): Promise<TranslationList> {
  const { input, lang } = parseWith(TranslateDataArgs, raw);
  const translator = ctx.services.translator;
  if (!translator) throw new UserError("UNAVAILABLE", TRANSLATION_MESSAGES.notSetUp);
  const organisation = await organisationForHost(ctx, input.organisationID);
  const settings = await translationSettings(ctx, organisation.id);
  if (!settings.enabled) throw new UserError("FORBIDDEN", TRANSLATION_MESSAGES.turnedOff);
  await checkLanguage(translator, lang, settings.sourceLanguage);

  const sources = await sourcesFor(ctx, organisation, input.reportFormID);
  const byName = new Map(sources.map((source) => [source.name, source]));
  // Names the server does not know are left out; a name asked twice is answered once.
  const asked = input.items ? [...new Map(input.items.filter((item) => byName.has(item.name)).map((item) => [item.name, item])).values()] : null;
  const wanted = asked ? asked.map((item) => byName.get(item.name)!) : sources;
  const defaults = new Map(asked?.map((item) => [item.name, item.defaultText]) ?? []);

  const overrides = await overridesFor(ctx, lang, wanted);
  const translated = new Map(overrides);
  for (const format of ["Text", "HTML"] as const satisfies readonly TranslationFormat[]) {
    const pending = wanted.filter((source) => source.format === format && !overrides.has(source.name));
    if (pending.length === 0) continue;
    const answers = await translator.translateOrganisationTexts(
      pending.map((source) => source.text),
      format,
      settings.sourceLanguage,
      lang,
    );
    pending.forEach((source, index) => {
      const answer = answers[index];
      if (answer) translated.set(source.name, answer);
    });
  }

  const list = wanted.map((source) => ({
    name: source.name,
    defaultText: defaults.get(source.name) ?? source.text,
    format: source.format,
    originalText: source.text,
    translatedText: translated.get(source.name) ?? null,
  }));
  return { total: list.length, list };
}
