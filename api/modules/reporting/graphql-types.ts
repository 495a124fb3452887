import { builder } from "../../graphql/builder.ts";
import { attachmentMetadataRemoved } from "../files/attachment-cleaning.ts";
import { CONDITION_MATCH_TYPES, WIDGET_TYPES } from "../../shared/enums.ts";
import type { ConditionRule, FormWidget, WidgetCondition } from "../../shared/form-definition.ts";
import type { FieldError } from "./draft.ts";
import type { ReporterFormView } from "./forms.ts";
import type { ReportCompletion } from "./complete.ts";
import { REPORTER_STATUSES, type ReporterAnswer, type ReporterSubmissionView } from "./follow-up.ts";

export const WidgetTypeEnum = builder.enumType("WidgetType", { values: WIDGET_TYPES });
export const MatchTypeEnum = builder.enumType("ConditionMatchType", { values: CONDITION_MATCH_TYPES });

const ConditionRuleType = builder.objectRef<ConditionRule>("ConditionRule").implement({
  fields: (t) => ({
    id: t.exposeString("id"),
    conditionWidgetID: t.exposeString("conditionWidgetID"),
    conditionAnswer: t.exposeString("conditionAnswer"),
  }),
});

const ConditionType = builder.objectRef<WidgetCondition>("WidgetCondition").implement({
  fields: (t) => ({
    id: t.exposeString("id"),
    matchType: t.expose("matchType", { type: MatchTypeEnum }),
    rules: t.expose("rules", { type: [ConditionRuleType] }),
  }),
});

export const FormWidgetType = builder.objectRef<FormWidget>("FormWidget").implement({
  fields: (t) => ({
    id: t.exposeString("id"),
    type: t.expose("type", { type: WidgetTypeEnum }),
    title: t.exposeString("title"),
    required: t.exposeBoolean("required"),
    tooltip: t.exposeString("tooltip"),
    caption: t.exposeString("caption"),
    answers: t.exposeStringList("answers"),
    pageName: t.exposeString("pageName", { nullable: true }),
    condition: t.expose("condition", { type: ConditionType, nullable: true }),
  }),
});

export const ReporterFormType = builder.objectRef<ReporterFormView>("ReporterForm").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    reportFormID: t.exposeID("reportFormID"),
    buildID: t.exposeID("buildID", { description: "The build whose questions this reporter fills in: the deployed one, or the one their unfinished report began on." }),
    name: t.exposeString("name"),
    secured: t.exposeBoolean("secured"),
    unlocked: t.exposeBoolean("unlocked"),
    welcomeMessageTitle: t.exposeString("welcomeMessageTitle"),
    welcomeMessageContent: t.exposeString("welcomeMessageContent"),
    finishMessageTitle: t.exposeString("finishMessageTitle"),
    finishMessageContent: t.exposeString("finishMessageContent"),
    uploadFilesMessage: t.exposeString("uploadFilesMessage"),
    showImportantInfoMessage: t.exposeBoolean("showImportantInfoMessage"),
    assignedToSupportMessage: t.exposeString("assignedToSupportMessage"),
    allowFileUploads: t.exposeBoolean("allowFileUploads"),
    allowedFileTypes: t.exposeStringList("allowedFileTypes"),
    hasChat: t.exposeBoolean("hasChat"),
    allowChatFileUploads: t.exposeBoolean("allowChatFileUploads"),
    showLogo: t.exposeBoolean("showLogo"),
    theme: t.field({ type: "JSONObject", resolve: (form) => form.theme }),
    widgets: t.expose("widgets", { type: [FormWidgetType] }),
  }),
});

export const FieldErrorType = builder.objectRef<FieldError>("FieldError").implement({
  fields: (t) => ({ field: t.exposeString("field"), message: t.exposeString("message") }),
});

export const ReportUpdateResultType = builder.objectRef<{ success: boolean; errors: FieldError[] }>("ReportUpdateResult").implement({
  fields: (t) => ({ success: t.exposeBoolean("success"), errors: t.expose("errors", { type: [FieldErrorType] }) }),
});

export const ReportCompletionType = builder.objectRef<ReportCompletion>("ReportCompletion").implement({
  fields: (t) => ({ reportID: t.exposeString("reportID"), generatedPassword: t.exposeString("generatedPassword") }),
});

export const ReportAnswerInput = builder.inputType("ReportAnswerInput", {
  fields: (t) => ({ widgetID: t.string({ required: true }), answer: t.stringList({ required: true }) }),
});

const ReporterAnswerType = builder.objectRef<ReporterAnswer>("ReporterAnswer").implement({
  fields: (t) => ({
    widgetID: t.exposeString("widgetID"),
    title: t.exposeString("title"),
    type: t.expose("type", { type: WidgetTypeEnum }),
    answer: t.exposeStringList("answer"),
  }),
});

const ReporterPageType = builder.objectRef<ReporterSubmissionView["pages"][number]>("ReporterAnswerPage").implement({
  fields: (t) => ({ name: t.exposeString("name"), answers: t.expose("answers", { type: [ReporterAnswerType] }) }),
});

export const AttachmentType = builder.objectRef<ReporterSubmissionView["attachments"][number]>("Attachment").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    fileName: t.exposeString("fileName"),
    fileSizeBytes: t.exposeInt("fileSizeBytes"),
    mimeType: t.exposeString("mimeType"),
    fileURL: t.exposeString("fileURL"),
    metadataRemoved: t.boolean({
      description: "Whether metadata that could identify the reporter (author, company, location…) was removed before the file was stored.",
      resolve: (attachment, _args, ctx) => attachmentMetadataRemoved(ctx, attachment.id),
    }),
  }),
});

const ReporterStatusEnum = builder.enumType("ReporterReportStatus", {
  values: REPORTER_STATUSES,
  description: "Where a report stands for its reporter: received, being handled, or closed. Never the staff status or outcome.",
});

export const ReporterSubmissionType = builder.objectRef<ReporterSubmissionView>("ReporterSubmission").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    organisationID: t.exposeID("organisationID"),
    formID: t.exposeID("formID"),
    reportID: t.exposeString("reportID", { nullable: true }),
    completed: t.exposeBoolean("completed"),
    completedAt: t.expose("completedAt", { type: "DateTime", nullable: true }),
    formName: t.exposeString("formName"),
    organisationName: t.exposeString("organisationName"),
    reporterStatus: t.expose("reporterStatus", { type: ReporterStatusEnum }),
    standingMessage: t.exposeString("standingMessage", { description: "The form's message for where the report stands, as sanitised HTML; empty when it has none." }),
    standingMessageName: t.exposeString("standingMessageName", {
      nullable: true,
      description: "That message's name for translateData (form.assignedToSupportMessage or form.reportClosedMessage); null when there is no message.",
    }),
    hasChat: t.exposeBoolean("hasChat"),
    allowChatFileUploads: t.exposeBoolean("allowChatFileUploads"),
    conversationClosed: t.exposeBoolean("conversationClosed"),
    unreadMessages: t.exposeInt("unreadMessages"),
    pages: t.expose("pages", { type: [ReporterPageType] }),
    attachments: t.expose("attachments", { type: [AttachmentType] }),
  }),
});

export const EnquiryResultType = builder.objectRef<{ reportID: string; pin: string | null }>("EnquiryResult").implement({
  fields: (t) => ({ reportID: t.exposeString("reportID"), pin: t.exposeString("pin", { nullable: true }) }),
});
