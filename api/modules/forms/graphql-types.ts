import { builder } from "../../graphql/builder.ts";
import { BUILD_PUBLISH_STATES, FORM_STATUSES } from "../../shared/enums.ts";
import { THEME_KEYS } from "../../shared/theme.ts";
import { FormWidgetType, MatchTypeEnum, WidgetTypeEnum } from "../reporting/graphql-types.ts";
import { loadBuild, type BuildView } from "./builds.ts";
import type { FormNoteView } from "./notes.ts";
import type { ReportFormView } from "./views.ts";

/** The console's view of report forms, their builds and notes (the brief's GraphQL contract). */

export const ReportFormStatusEnum = builder.enumType("ReportFormStatus", { values: FORM_STATUSES });
export const BuildPublishStateEnum = builder.enumType("BuildPublishState", { values: BUILD_PUBLISH_STATES });

const BuildAuthorType = builder.objectRef<NonNullable<BuildView["author"]>>("ReportFormBuildAuthor").implement({
  fields: (t) => ({ id: t.exposeID("id"), email: t.exposeString("email") }),
});

export const ReportFormBuildType = builder.objectRef<BuildView>("ReportFormBuild").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    revision: t.exposeInt("revision"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    author: t.expose("author", { type: BuildAuthorType, nullable: true, description: "null: written by the system ('System')." }),
    widgets: t.expose("widgets", { type: [FormWidgetType] }),
  }),
});

type Theme = Record<string, string>;

const ReportFormThemeType = builder.objectRef<Theme>("ReportFormTheme").implement({
  description: "Hex colours by the spec's keys; null means the palette's default.",
  fields: (t) => Object.fromEntries(THEME_KEYS.map((key) => [key, t.string({ nullable: true, resolve: (theme) => theme[key] ?? null })])),
});

const ReportFormOrganisationType = builder.objectRef<ReportFormView["organisation"]>("ReportFormOrganisation").implement({
  fields: (t) => ({ id: t.exposeID("id"), name: t.exposeString("name"), slug: t.exposeString("slug") }),
});

export const ReportFormType = builder.objectRef<ReportFormView>("ReportForm").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    status: t.expose("status", { type: ReportFormStatusEnum }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    archived: t.exposeBoolean("archived"),
    locked: t.exposeBoolean("locked"),
    organisationID: t.exposeID("organisationId"),
    organisation: t.expose("organisation", { type: ReportFormOrganisationType }),
    hasNotes: t.exposeBoolean("hasNotes"),
    notesCount: t.exposeInt("notesCount"),
    secured: t.exposeBoolean("secured", { description: "A form password is set; the password itself is never returned." }),
    theme: t.field({ type: ReportFormThemeType, resolve: (form) => form.theme }),
    currentBuild: t.field({ type: ReportFormBuildType, nullable: true, resolve: (form, _args, ctx) => loadBuild(ctx.db, form.currentBuildId) }),
    deployedBuild: t.field({ type: ReportFormBuildType, nullable: true, resolve: (form, _args, ctx) => loadBuild(ctx.db, form.deployedBuildId) }),
    publishState: t.expose("publishState", { type: BuildPublishStateEnum }),
    publicURL: t.exposeString("publicURL", { nullable: true }),
    welcomeMessageTitle: t.exposeString("welcomeMessageTitle"),
    welcomeMessageContent: t.exposeString("welcomeMessageContent"),
    finishMessageTitle: t.exposeString("finishMessageTitle"),
    finishMessageContent: t.exposeString("finishMessageContent"),
    uploadFilesMessage: t.exposeString("uploadFilesMessage"),
    assignedToSupportMessage: t.exposeString("assignedToSupportMessage"),
    reportClosedMessage: t.exposeString("reportClosedMessage"),
    acknowledgementMessage: t.exposeString("acknowledgementMessage"),
    showImportantInfoMessage: t.exposeBoolean("showImportantInfoMessage"),
    showLogo: t.exposeBoolean("showLogo"),
    hasChat: t.exposeBoolean("hasChat"),
    allowFileUploads: t.exposeBoolean("allowFileUploads"),
    allowChatFileUploads: t.exposeBoolean("allowChatFileUploads"),
    allowedFileTypes: t.exposeStringList("allowedFileTypes"),
  }),
});

export const ReportFormListType = builder.objectRef<{ total: number; list: ReportFormView[] }>("ReportFormList").implement({
  fields: (t) => ({ total: t.exposeInt("total"), list: t.expose("list", { type: [ReportFormType] }) }),
});

const NoteAuthorType = builder.objectRef<NonNullable<FormNoteView["author"]>>("ReportFormNoteAuthor").implement({
  fields: (t) => ({ id: t.exposeID("id"), firstName: t.exposeString("firstName"), lastName: t.exposeString("lastName"), role: t.exposeString("role") }),
});

export const ReportFormNoteType = builder.objectRef<FormNoteView>("ReportFormNote").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    note: t.exposeString("note"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    archived: t.exposeBoolean("archived"),
    author: t.expose("author", { type: NoteAuthorType, nullable: true }),
    canEdit: t.exposeBoolean("canEdit"),
  }),
});

export const ReportFormNoteListType = builder.objectRef<{ total: number; list: FormNoteView[] }>("ReportFormNoteList").implement({
  fields: (t) => ({ total: t.exposeInt("total"), list: t.expose("list", { type: [ReportFormNoteType] }) }),
});

const ThemeInput = builder.inputType("ReportFormThemeInput", {
  fields: (t) => Object.fromEntries(THEME_KEYS.map((key) => [key, t.string()])),
});

const RuleInput = builder.inputType("WidgetConditionRuleInput", {
  fields: (t) => ({ conditionWidgetID: t.string(), conditionWidgetIndex: t.int(), conditionAnswer: t.string({ required: true }) }),
});

const ConditionInput = builder.inputType("WidgetConditionInput", {
  fields: (t) => ({ matchType: t.field({ type: MatchTypeEnum, required: true }), rules: t.field({ type: [RuleInput], required: true }) }),
});

export const WidgetInput = builder.inputType("ReportFormWidgetInput", {
  fields: (t) => ({
    id: t.string({ description: "Keep an existing widget's id; omit for a new widget." }),
    type: t.field({ type: WidgetTypeEnum, required: true }),
    title: t.string({ required: true }),
    required: t.boolean(),
    tooltip: t.string(),
    caption: t.string(),
    answers: t.stringList(),
    pageName: t.string({ description: "Section only: non-empty starts a new page." }),
    condition: t.field({ type: ConditionInput }),
  }),
});

export const ReportFormInput = builder.inputType("ReportFormInput", {
  fields: (t) => ({
    organisationID: t.id(),
    name: t.string({ required: true }),
    theme: t.field({ type: ThemeInput }),
    widgets: t.field({ type: [WidgetInput], required: true }),
    locked: t.boolean(),
    welcomeMessageTitle: t.string(),
    welcomeMessageContent: t.string(),
    finishMessageTitle: t.string(),
    finishMessageContent: t.string(),
    uploadFilesMessage: t.string(),
    assignedToSupportMessage: t.string(),
    reportClosedMessage: t.string(),
    acknowledgementMessage: t.string(),
    showImportantInfoMessage: t.boolean(),
    showLogo: t.boolean(),
    hasChat: t.boolean(),
    allowFileUploads: t.boolean(),
    allowChatFileUploads: t.boolean(),
    allowedFileTypes: t.stringList(),
    secure: t.boolean(),
    password: t.string(),
    baseRevision: t.int({ description: "Update only: the currentBuild revision the editor loaded; a newer save answers CONFLICT." }),
  }),
});
