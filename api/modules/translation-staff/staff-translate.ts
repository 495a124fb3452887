import { eq } from "drizzle-orm";
import * as v from "valibot";
import { reportConversationMessages, reportConversations } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { parseWith } from "../../lib/validation.ts";
import type { WidgetType } from "../../shared/enums.ts";
import { requirePermission } from "../access/policy.ts";
import { conversationFor } from "../conversations/access.ts";
import { reportAnswers } from "../reports/detail.ts";
import { reportFor, type ReportAccess } from "../reports/policy.ts";
import { loadReportViews } from "../reports/views.ts";
import { REPORTER_TRANSLATION_REFUSED } from "../translation/service.ts";
import { TRANSLATION_MESSAGES, translationSettings } from "../translation/translate-data.ts";
import type { Translator } from "../translation/translator.ts";
import { LanguageCode } from "../translation-review/language-code.ts";

/**
 * Staff reading a reporter's words in another language (docs/decisions/046-staff-translation.md).
 * Only through a translation server the organisation runs itself, only while the organisation has
 * translations on, and only what the caller may already read. The texts go to the Translator's
 * uncached path and come back beside their originals; nothing is stored and nothing is logged.
 */

export const STAFF_TRANSLATION_MESSAGES = {
  notSetUp: "Translation is not set up on this server.",
  notSelfHosted: REPORTER_TRANSLATION_REFUSED,
  turnedOff: "This organisation does not have translations turned on.",
  providerDown: "The translation server did not answer. The original is shown; please try again later.",
  nothingToTranslate: "This message has no text to translate.",
  messageNotFound: "Message is not found",
} as const;

/** What a reporter types into these widgets is theirs; choices, dates and notes are the organisation's. */
const FREE_TEXT_WIDGETS: ReadonlySet<WidgetType> = new Set(["ShortText", "LongText"]);

const LangArg = v.object({ lang: LanguageCode });

export interface StaffTranslationAvailability {
  available: boolean;
  /** The organisation's form language: what the console offers first. */
  formLanguage: string;
}

export interface AnswerTranslation {
  widgetID: string;
  title: string;
  originalText: string;
  /** Null when the provider could not translate this one text: the console shows the original alone. */
  translatedText: string | null;
}

export interface ReportTranslation {
  reportSubmissionID: string;
  lang: string;
  answers: AnswerTranslation[];
}

export interface MessageTranslation {
  messageID: string;
  lang: string;
  originalText: string;
  translatedText: string | null;
}

/** Whether staff may send this organisation's reporters' words to the configured provider. */
async function availability(ctx: Ctx, organisationId: string): Promise<{ translator: Translator | null; refusal: UserError | null; formLanguage: string }> {
  const settings = await translationSettings(ctx, organisationId);
  const translator = ctx.services.translator;
  // Checked in this order so the message names what an operator would change first.
  const refusal = !translator
    ? new UserError("UNAVAILABLE", STAFF_TRANSLATION_MESSAGES.notSetUp)
    : !translator.selfHosted
      ? new UserError("FORBIDDEN", STAFF_TRANSLATION_MESSAGES.notSelfHosted)
      : !settings.enabled
        ? new UserError("FORBIDDEN", STAFF_TRANSLATION_MESSAGES.turnedOff)
        : null;
  return { translator, refusal, formLanguage: settings.sourceLanguage };
}

/** The translator, once the language is well formed, translation is allowed here and the provider offers the language. */
async function translatorFor(ctx: Ctx, organisationId: string, rawLang: unknown): Promise<{ translator: Translator; lang: string }> {
  const { lang } = parseWith(LangArg, { lang: rawLang });
  const { translator, refusal } = await availability(ctx, organisationId);
  if (refusal || !translator) throw refusal ?? new UserError("UNAVAILABLE", STAFF_TRANSLATION_MESSAGES.notSetUp);
  const languages = await translator.languages();
  if (languages.length === 0) throw new UserError("UNAVAILABLE", TRANSLATION_MESSAGES.noLanguages);
  if (!languages.some((language) => language.code === lang)) throw new UserError("BAD_USER_INPUT", TRANSLATION_MESSAGES.unknownLanguage, { fields: [{ field: "lang", message: TRANSLATION_MESSAGES.unknownLanguage }] });
  return { translator, lang };
}

/** Translations in order; when every text failed the provider is down, which staff are told plainly. */
async function translateAll(translator: Translator, texts: readonly string[], lang: string): Promise<(string | null)[]> {
  if (texts.length === 0) return [];
  const translated = await translator.translateReporterTexts(texts, lang);
  if (translated.every((text) => text === null)) throw new UserError("UNAVAILABLE", STAFF_TRANSLATION_MESSAGES.providerDown);
  return translated;
}

export async function staffTranslationAvailability(ctx: Ctx, reportSubmissionID: unknown): Promise<StaffTranslationAvailability> {
  const access = await reportFor(ctx, ctx.db, reportSubmissionID, "ReportSubmissionRead");
  const { refusal, formLanguage } = await availability(ctx, access.submission.organisationId);
  return { available: refusal === null, formLanguage };
}

/** The reporter's free-text answers, translated, each beside its original. */
export async function translateReport(ctx: Ctx, id: unknown, rawLang: unknown): Promise<ReportTranslation> {
  const access: ReportAccess = await reportFor(ctx, ctx.db, id, "ReportSubmissionRead");
  const { translator, lang } = await translatorFor(ctx, access.submission.organisationId, rawLang);
  const [view] = await loadReportViews(ctx, access.actor, [access.submission.id]);
  const pages = await reportAnswers(ctx, view!);
  const answers = pages
    .flatMap((page) => page.answers)
    .filter((answer) => FREE_TEXT_WIDGETS.has(answer.type))
    .map((answer) => ({ widgetID: answer.widgetID, title: answer.title, originalText: answer.answer.join("\n") }))
    .filter((answer) => answer.originalText.trim() !== "");
  const translated = await translateAll(translator, answers.map((answer) => answer.originalText), lang);
  return { reportSubmissionID: access.submission.id, lang, answers: answers.map((answer, index) => ({ ...answer, translatedText: translated[index] ?? null })) };
}

/** One chat message's text (the reporter's or staff's), translated, beside its original. */
export async function translateMessage(ctx: Ctx, id: unknown, rawLang: unknown): Promise<MessageTranslation> {
  // Staff only, before anything is looked up: a reporter's session reaches its own chat through
  // conversationFor, and this action is not theirs.
  requirePermission(ctx, "ReportConversationRead");
  const notFound = new UserError("NOT_FOUND", STAFF_TRANSLATION_MESSAGES.messageNotFound);
  if (!isUuid(id)) throw notFound;
  const [row] = await ctx.db
    .select({
      id: reportConversationMessages.id,
      type: reportConversationMessages.type,
      message: reportConversationMessages.message,
      organisationId: reportConversationMessages.organisationId,
      submissionId: reportConversations.submissionId,
    })
    .from(reportConversationMessages)
    .innerJoin(reportConversations, eq(reportConversations.id, reportConversationMessages.conversationId))
    .where(eq(reportConversationMessages.id, id))
    .limit(1);
  if (!row) throw notFound;
  // The same answer for a message of a report the caller may not see as for none at all.
  const access = await conversationFor(ctx, ctx.db, row.submissionId, "ReportConversationRead").catch((error: unknown) => {
    throw error instanceof UserError && error.code === "NOT_FOUND" ? notFound : error;
  });
  const { translator, lang } = await translatorFor(ctx, access.submission.organisationId, rawLang);
  // Stored sealed; opened only once the caller is known to be allowed to read it.
  const sealer = await ctx.services.keyRing.sealer(ctx.db, row.organisationId);
  const text = sealer.openText("message", row.message);
  // System lines are Lantern's own words; an image without a caption has none.
  if (row.type === "System" || text.trim() === "") throw new UserError("BAD_USER_INPUT", STAFF_TRANSLATION_MESSAGES.nothingToTranslate);
  const [translatedText] = await translateAll(translator, [text], lang);
  return { messageID: row.id, lang, originalText: text, translatedText: translatedText ?? null };
}
