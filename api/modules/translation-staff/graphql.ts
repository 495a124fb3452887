import { builder } from "../../graphql/builder.ts";
import {
  staffTranslationAvailability,
  translateMessage,
  translateReport,
  type AnswerTranslation,
  type MessageTranslation,
  type ReportTranslation,
  type StaffTranslationAvailability,
} from "./staff-translate.ts";

/**
 * Staff's Translate action on a reporter's words (docs/decisions/046-staff-translation.md). Queries,
 * not mutations: nothing is written. Each resolver checks the report's own permission itself
 * (reportFor / conversationFor), so the scopes here only keep reporters and visitors out early.
 */

const AvailabilityType = builder.objectRef<StaffTranslationAvailability>("StaffTranslationAvailability").implement({
  description: "Whether staff may have this report's words machine-translated, and the language to offer first.",
  fields: (t) => ({
    available: t.exposeBoolean("available", { description: "A self-hosted provider is set up and the organisation has translations on." }),
    formLanguage: t.exposeString("formLanguage", { description: "The organisation's form language." }),
  }),
});

const AnswerTranslationType = builder.objectRef<AnswerTranslation>("ReportAnswerTranslation").implement({
  description: "One of the reporter's free-text answers with its translation; the original is always kept.",
  fields: (t) => ({
    widgetID: t.exposeID("widgetID"),
    title: t.exposeString("title"),
    originalText: t.exposeString("originalText"),
    translatedText: t.exposeString("translatedText", { nullable: true }),
  }),
});

const ReportTranslationType = builder.objectRef<ReportTranslation>("ReportSubmissionTranslation").implement({
  fields: (t) => ({
    reportSubmissionID: t.exposeID("reportSubmissionID"),
    lang: t.exposeString("lang"),
    answers: t.expose("answers", { type: [AnswerTranslationType] }),
  }),
});

const MessageTranslationType = builder.objectRef<MessageTranslation>("ReportConversationMessageTranslation").implement({
  fields: (t) => ({
    messageID: t.exposeID("messageID"),
    lang: t.exposeString("lang"),
    originalText: t.exposeString("originalText"),
    translatedText: t.exposeString("translatedText", { nullable: true }),
  }),
});

builder.queryFields((t) => ({
  reporterTranslationAvailable: t.field({
    type: AvailabilityType,
    authScopes: { staff: true },
    args: { reportSubmissionID: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => staffTranslationAvailability(ctx, String(args.reportSubmissionID)),
  }),
  reportSubmissionTranslate: t.field({
    type: ReportTranslationType,
    authScopes: { staff: true },
    description: "The reporter's free-text answers translated into lang by the organisation's own translation server; never stored.",
    args: { id: t.arg.id({ required: true }), lang: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => translateReport(ctx, String(args.id), args.lang),
  }),
  reportConversationMessageTranslate: t.field({
    type: MessageTranslationType,
    authScopes: { staff: true },
    description: "One chat message's text translated into lang by the organisation's own translation server; never stored.",
    args: { id: t.arg.id({ required: true }), lang: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => translateMessage(ctx, String(args.id), args.lang),
  }),
}));
