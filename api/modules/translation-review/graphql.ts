import { builder } from "../../graphql/builder.ts";
import { ContentFormatEnum } from "../translation/graphql.ts";
import { formTranslations, updateFormTranslation, type FormTranslationsView, type TranslationReviewItem } from "./review.ts";


const ChangedSinceType = builder.objectRef<NonNullable<TranslationReviewItem["changedSince"]>>("TranslationChangedSince").implement({
  description: "The original and translation a text was reviewed with, before the original changed.",
  fields: (t) => ({
    previousOriginalText: t.exposeString("previousOriginalText"),
    previousTranslatedText: t.exposeString("previousTranslatedText", { nullable: true }),
  }),
});

const ReviewItemType = builder.objectRef<TranslationReviewItem>("FormTranslationReviewItem").implement({
  description: "One text of a form's current build in one language: the original, the machine's translation and staff's review of it.",
  fields: (t) => ({
    name: t.exposeString("name"),
    label: t.exposeString("label"),
    format: t.expose("format", { type: ContentFormatEnum }),
    originalText: t.exposeString("originalText"),
    machineText: t.exposeString("machineText", { nullable: true }),
    overrideText: t.exposeString("overrideText", { nullable: true }),
    reviewed: t.exposeBoolean("reviewed"),
    reviewedAt: t.expose("reviewedAt", { type: "DateTime", nullable: true }),
    changedSince: t.expose("changedSince", { type: ChangedSinceType, nullable: true }),
  }),
});

const FormTranslationsType = builder.objectRef<FormTranslationsView>("FormTranslations").implement({
  fields: (t) => ({
    reportFormID: t.exposeID("reportFormID"),
    lang: t.exposeString("lang"),
    formLanguage: t.exposeString("formLanguage"),
    translationsEnabled: t.exposeBoolean("translationsEnabled", { description: "The organisation has form translations turned on." }),
    providerConfigured: t.exposeBoolean("providerConfigured", { description: "This installation has a translation provider set up." }),
    items: t.expose("items", { type: [ReviewItemType] }),
  }),
});

const TranslationUpdateInputType = builder.inputType("ReportFormTranslationUpdateInput", {
  fields: (t) => ({
    reportFormID: t.id({ required: true }),
    lang: t.string({ required: true }),
    name: t.string({ required: true }),
    translatedText: t.string({ required: false, description: "Staff's own translation; null keeps the machine text." }),
    reviewed: t.boolean({ required: true }),
  }),
});

builder.queryFields((t) => ({
  reportFormTranslations: t.field({
    type: FormTranslationsType,
    args: { reportFormID: t.arg.id({ required: true }), lang: t.arg.string({ required: true }) },
    authScopes: { permission: "ReportFormRead" },
    resolve: (_root, args, ctx) => formTranslations(ctx, String(args.reportFormID), args.lang),
  }),
}));

builder.mutationFields((t) => ({
  reportFormTranslationUpdate: t.field({
    type: ReviewItemType,
    args: { input: t.arg({ type: TranslationUpdateInputType, required: true }) },
    authScopes: { permission: "ReportFormUpdate" },
    resolve: (_root, args, ctx) => updateFormTranslation(ctx, args.input),
  }),
}));
