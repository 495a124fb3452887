import { builder } from "../../graphql/builder.ts";
import { CONTENT_FORMATS } from "../../shared/enums.ts";
import type { TranslationItem, TranslationLanguage } from "../../shared/translation.ts";
import { translateData, type TranslationList } from "./translate-data.ts";

/**
 * Form translation's GraphQL (spec: translateData(input, lang), the Translation item and its list
 * envelope). translateData is public: reporters, visitors and staff previewing a form all read
 * the same organisation texts; translationLanguages is the console's.
 */

/** The spec's content formats; the review of translations uses it too. */
export const ContentFormatEnum = builder.enumType("ContentFormat", { values: CONTENT_FORMATS });

const TranslationType = builder.objectRef<TranslationItem>("Translation").implement({
  fields: (t) => ({
    name: t.exposeString("name"),
    defaultText: t.exposeString("defaultText"),
    format: t.expose("format", { type: ContentFormatEnum }),
    originalText: t.exposeString("originalText"),
    translatedText: t.exposeString("translatedText", { nullable: true }),
  }),
});

const TranslationListType = builder.objectRef<TranslationList>("TranslationList").implement({
  fields: (t) => ({ total: t.exposeInt("total"), list: t.expose("list", { type: [TranslationType] }) }),
});

const TranslationLanguageType = builder.objectRef<TranslationLanguage>("TranslationLanguage").implement({
  description: "A language a form can be translated into, named in itself.",
  fields: (t) => ({ code: t.exposeString("code"), name: t.exposeString("name") }),
});

const TranslateDataItemInput = builder.inputType("TranslateDataItemInput", {
  fields: (t) => ({
    name: t.string({ required: true, description: "The text's name: form.welcomeMessageContent, widget.{id}.title, organisation.generalEnquiryLabel…" }),
    defaultText: t.string({ description: "Answered back as defaultText; never translated." }),
    format: t.field({ type: ContentFormatEnum }),
  }),
});

const TranslateDataInput = builder.inputType("TranslateDataInput", {
  fields: (t) => ({
    organisationID: t.id({ required: true }),
    reportFormID: t.id({ description: "The form whose texts and questions to include, as this visitor's build shows them." }),
    items: t.field({ type: [TranslateDataItemInput], description: "The texts wanted by name; every text when omitted." }),
  }),
});

builder.queryFields((t) => ({
  translateData: t.field({
    type: TranslationListType,
    description: "The organisation's own texts (and a form's), translated into lang; a text that could not be translated has translatedText null.",
    args: { input: t.arg({ type: TranslateDataInput, required: true }), lang: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      translateData(ctx, {
        lang: args.lang,
        input: {
          organisationID: String(args.input.organisationID),
          reportFormID: args.input.reportFormID === null || args.input.reportFormID === undefined ? null : String(args.input.reportFormID),
          items: args.input.items ?? null,
        },
      }),
  }),
  translationLanguages: t.field({
    type: [TranslationLanguageType],
    authScopes: { staff: true },
    description: "The configured provider's languages, each named in itself; empty when none is set up.",
    resolve: async (_root, _args, ctx) => (ctx.services.translator ? ctx.services.translator.languages() : []),
  }),
}));
