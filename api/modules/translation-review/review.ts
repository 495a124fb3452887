import { createHash } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import * as v from "valibot";
import type { Database } from "../../../db/client.ts";
import { formTranslationOverrides, organisations } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { badInput } from "../../lib/errors.ts";
import { parseWith } from "../../lib/validation.ts";
import type { TranslationFormat } from "../../shared/translation.ts";
import { mutate, parseOnceFound, requirePermission } from "../access/policy.ts";
import { auditForm, reachableForm, type FormRow } from "../forms/views.ts";
import { buildWidgets } from "../reporting/forms.ts";
import { formSources, type TranslationSource } from "../translation/sources.ts";
import { cleanOverride, TranslationUpdateInput } from "./inputs.ts";
import { LanguageCode } from "./language-code.ts";

/**
 * Staff review of a form's translations (docs/decisions/045-translation-review.md): every text of
 * the build staff edit, beside its machine translation and the override staff wrote for it. An
 * override belongs to the original text's hash, so a text edited since its review shows the earlier
 * original and translation as 'changed since review' until someone reviews it again.
 */

export const NOT_A_FORM_TEXT = "This text is not part of the form";
export const SAME_LANGUAGE = "This is the language the form is written in: choose another to review";

export interface TranslationReviewItem {
  name: string;
  label: string;
  format: TranslationFormat;
  originalText: string;
  /** Null when no provider is set up, translations are off for the organisation, or the provider failed. */
  machineText: string | null;
  overrideText: string | null;
  reviewed: boolean;
  reviewedAt: Date | null;
  changedSince: { previousOriginalText: string; previousTranslatedText: string | null } | null;
}

export interface FormTranslationsView {
  reportFormID: string;
  lang: string;
  formLanguage: string;
  translationsEnabled: boolean;
  providerConfigured: boolean;
  items: TranslationReviewItem[];
}

type OverrideRow = typeof formTranslationOverrides.$inferSelect;
type Setting = { formLanguage: string; enableFormTranslations: boolean };

export const sourceHash = (text: string) => createHash("sha256").update(text).digest("hex");

/** The texts of the build staff edit (not the published one): what they review is what they will publish. */
async function currentSources(db: Database, form: FormRow): Promise<TranslationSource[]> {
  const widgets = form.currentBuildId ? await buildWidgets(db, form.currentBuildId) : [];
  return formSources(form, widgets);
}

async function organisationSetting(db: Database, organisationId: string): Promise<Setting> {
  const [row] = await db
    .select({ formLanguage: organisations.formLanguage, enableFormTranslations: organisations.enableFormTranslations })
    .from(organisations)
    .where(eq(organisations.id, organisationId));
  return row!;
}

function otherLanguage(lang: string, setting: Setting): string {
  if (lang.toLowerCase() === setting.formLanguage.toLowerCase()) throw badInput(SAME_LANGUAGE, [{ field: "lang", message: SAME_LANGUAGE }]);
  return lang;
}

/**
 * Machine texts for these sources, in order. Only when the organisation has translations on: an
 * organisation that has not turned them on never has its texts sent to a provider.
 */
async function machineTexts(ctx: Ctx, sources: readonly TranslationSource[], setting: Setting, lang: string): Promise<(string | null)[]> {
  const translator = ctx.services.translator;
  const out: (string | null)[] = sources.map(() => null);
  if (!translator || !setting.enableFormTranslations) return out;
  for (const format of ["Text", "HTML"] as const) {
    const positions = sources.flatMap((source, index) => (source.format === format ? [index] : []));
    if (positions.length === 0) continue;
    // The contract answers null for a failed text; a throw is treated the same: the page still works.
    const texts = await translator.translateOrganisationTexts(positions.map((index) => sources[index]!.text), format, setting.formLanguage, lang).catch(() => positions.map(() => null));
    positions.forEach((index, n) => (out[index] = texts[n] ?? null));
  }
  return out;
}

async function reviewItems(ctx: Ctx, db: Database, formId: string, sources: readonly TranslationSource[], setting: Setting, lang: string): Promise<TranslationReviewItem[]> {
  const [rows, machine] = await Promise.all([
    db
      .select()
      .from(formTranslationOverrides)
      .where(and(eq(formTranslationOverrides.formId, formId), eq(formTranslationOverrides.targetLanguage, lang)))
      .orderBy(desc(formTranslationOverrides.updatedAt)),
    machineTexts(ctx, sources, setting, lang),
  ]);
  const byName = new Map<string, OverrideRow[]>();
  for (const row of rows) byName.set(row.name, [...(byName.get(row.name) ?? []), row]);
  return sources.map((source, index) => {
    const hash = sourceHash(source.text);
    const mine = byName.get(source.name) ?? [];
    const current = mine.find((row) => row.sourceHash === hash);
    // The newest review of an earlier original, until the current text is reviewed in its turn.
    const earlier = current?.reviewed ? undefined : mine.find((row) => row.sourceHash !== hash);
    return {
      name: source.name,
      label: source.label,
      format: source.format,
      originalText: source.text,
      machineText: machine[index] ?? null,
      overrideText: current?.translatedText ?? null,
      reviewed: current?.reviewed ?? false,
      reviewedAt: current?.reviewedAt ?? null,
      changedSince: earlier ? { previousOriginalText: earlier.sourceText, previousTranslatedText: earlier.translatedText } : null,
    };
  });
}

/** reportFormTranslations: staff who may read the form, in its organisation (super admins any). */
export async function formTranslations(ctx: Ctx, rawFormId: unknown, rawLang: unknown): Promise<FormTranslationsView> {
  const actor = requirePermission(ctx, "ReportFormRead");
  const form = await reachableForm(ctx.db, actor, rawFormId);
  const { lang: given } = parseWith(v.object({ lang: LanguageCode }), { lang: rawLang });
  const setting = await organisationSetting(ctx.db, form.organisationId);
  const lang = otherLanguage(given, setting);
  const items = await reviewItems(ctx, ctx.db, form.id, await currentSources(ctx.db, form), setting, lang);
  return {
    reportFormID: form.id,
    lang,
    formLanguage: setting.formLanguage,
    translationsEnabled: setting.enableFormTranslations,
    providerConfigured: ctx.services.translator !== null,
    items,
  };
}

/**
 * reportFormTranslationUpdate: writes the review of one text for its current original, with its
 * audit entry, in one transaction. A null translatedText keeps the machine text.
 */
export async function updateFormTranslation(ctx: Ctx, raw: unknown): Promise<TranslationReviewItem> {
  const named = raw && typeof raw === "object" ? (raw as { reportFormID?: unknown }).reportFormID : undefined;
  const input = await parseOnceFound(ctx, "ReportFormUpdate", (db, actor) => reachableForm(db, actor, named), () => parseWith(TranslationUpdateInput, raw));
  const { form, source, setting, lang } = await mutate(ctx, "ReportFormUpdate", async (tx, actor) => {
    const form = await reachableForm(tx, actor, input.reportFormID, true);
    const setting = await organisationSetting(tx, form.organisationId);
    const lang = otherLanguage(input.lang, setting);
    const source = (await currentSources(tx, form)).find((candidate) => candidate.name === input.name);
    if (!source) throw badInput(NOT_A_FORM_TEXT, [{ field: "name", message: NOT_A_FORM_TEXT }]);
    const translatedText = cleanOverride(source, input.translatedText);
    const now = new Date();
    const change = { sourceText: source.text, translatedText, reviewed: input.reviewed, reviewedAt: input.reviewed ? now : null, updatedByUserId: actor.userId, updatedAt: now };
    await tx
      .insert(formTranslationOverrides)
      .values({ formId: form.id, targetLanguage: lang, name: source.name, sourceHash: sourceHash(source.text), ...change })
      .onConflictDoUpdate({
        target: [formTranslationOverrides.formId, formTranslationOverrides.targetLanguage, formTranslationOverrides.name, formTranslationOverrides.sourceHash],
        set: change,
      });
    await auditForm(tx, actor, form, "TranslationUpdate", { language: lang, text: source.name, reviewed: input.reviewed, overridden: translatedText !== null });
    return { form, source, setting, lang };
  });
  return (await reviewItems(ctx, ctx.db, form.id, [source], setting, lang))[0]!;
}
