import { builder } from "../../graphql/builder.ts";
import { RoleNameEnum } from "../users/graphql.ts";
import { forwardReportByEmail } from "./forward-email.ts";
import { PriorityEnum, ReportSubmissionType, SubmissionStatusEnum } from "./graphql-types.ts";
import { archiveReport, closeReport, hardDeleteReport, muteReportNotifications, openReport, setInternalReference, setReportPriority } from "./life.ts";
import { MessageType } from "../conversations/graphql.ts";
import { redactAnswer, redactMessage } from "./redaction.ts";
import { archiveNote, createNote, listNotes, updateNote, type ReportNoteView } from "./notes.ts";

/**
 * Report life (close, re-open, archive, hard delete, priority, identifiers, mute, forward) and the
 * report notes. The coarse permission sits on each field; the services check it again with the
 * object rules (team, status, organisation), which this file leaves to them.
 */

const ReportNoteAuthorType = builder.objectRef<NonNullable<ReportNoteView["author"]>>("ReportNoteAuthor").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    firstName: t.exposeString("firstName"),
    lastName: t.exposeString("lastName"),
    role: t.expose("role", { type: RoleNameEnum }),
  }),
});

const ReportNoteType = builder.objectRef<ReportNoteView>("ReportNote").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    note: t.exposeString("note"),
    newStatus: t.expose("newStatus", { type: SubmissionStatusEnum, nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    archived: t.exposeBoolean("archived"),
    editable: t.exposeBoolean("editable", { description: "The viewer's own note, not written by a status change." }),
    deletable: t.exposeBoolean("deletable", { description: "The viewer's own note." }),
    author: t.expose("author", { type: ReportNoteAuthorType, nullable: true, description: "Null once the author's account is deleted." }),
  }),
});

const ReportNoteListType = builder.objectRef<{ total: number; list: ReportNoteView[] }>("ReportNoteList").implement({
  fields: (t) => ({ total: t.exposeInt("total"), list: t.expose("list", { type: [ReportNoteType] }) }),
});

builder.queryFields((t) => ({
  reportSubmissionNotes: t.field({
    type: ReportNoteListType,
    args: { reportSubmissionID: t.arg.id({ required: true }), limit: t.arg.int(), offset: t.arg.int() },
    authScopes: { permission: "ReportSubmissionNoteList" },
    resolve: (_root, args, ctx) => listNotes(ctx, String(args.reportSubmissionID), args.limit, args.offset),
  }),
}));

builder.mutationFields((t) => ({
  reportSubmissionClose: t.field({
    type: ReportSubmissionType,
    args: { id: t.arg.id({ required: true }), completeStatus: t.arg({ type: SubmissionStatusEnum, required: true }), note: t.arg.string() },
    authScopes: { permission: "ReportSubmissionClose" },
    resolve: (_root, args, ctx) => closeReport(ctx, String(args.id), args.completeStatus, args.note),
  }),
  reportSubmissionOpen: t.field({
    type: ReportSubmissionType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportSubmissionOpen" },
    resolve: (_root, args, ctx) => openReport(ctx, String(args.id)),
  }),
  reportSubmissionArchive: t.field({
    type: ReportSubmissionType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportSubmissionArchive" },
    resolve: (_root, args, ctx) => archiveReport(ctx, String(args.id), true),
  }),
  reportSubmissionUnarchive: t.field({
    type: ReportSubmissionType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportSubmissionUnarchive" },
    resolve: (_root, args, ctx) => archiveReport(ctx, String(args.id), false),
  }),
  reportSubmissionHardDelete: t.field({
    type: ReportSubmissionType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportSubmissionHardDelete" },
    resolve: (_root, args, ctx) => hardDeleteReport(ctx, String(args.id)),
  }),
  reportSubmissionSetPriority: t.field({
    type: ReportSubmissionType,
    args: { id: t.arg.id({ required: true }), priority: t.arg({ type: PriorityEnum, required: true }) },
    authScopes: { permission: "ReportSubmissionUpdate" },
    resolve: (_root, args, ctx) => setReportPriority(ctx, String(args.id), args.priority),
  }),
  reportSubmissionInternalReference: t.field({
    type: ReportSubmissionType,
    args: { id: t.arg.id({ required: true }), internalReference: t.arg.string({ required: true }) },
    authScopes: { permission: "ReportSubmissionInternalReference" },
    resolve: (_root, args, ctx) => setInternalReference(ctx, String(args.id), args.internalReference),
  }),
  reportSubmissionMuteNotification: t.field({
    type: ReportSubmissionType,
    args: { id: t.arg.id({ required: true }), muted: t.arg.boolean({ required: true }) },
    authScopes: { permission: "ReportSubmissionRead" },
    resolve: (_root, args, ctx) => muteReportNotifications(ctx, String(args.id), args.muted),
  }),
  reportSubmissionForwardEmail: t.field({
    type: ReportSubmissionType,
    args: { id: t.arg.id({ required: true }), email: t.arg.string({ required: true }) },
    authScopes: { permission: "ReportSubmissionRead" },
    resolve: (_root, args, ctx) => forwardReportByEmail(ctx, String(args.id), args.email),
  }),
  reportSubmissionNoteCreate: t.field({
    type: ReportNoteType,
    args: { reportSubmissionID: t.arg.id({ required: true }), note: t.arg.string({ required: true }) },
    authScopes: { permission: "ReportSubmissionNoteCreate" },
    resolve: (_root, args, ctx) => createNote(ctx, String(args.reportSubmissionID), args.note),
  }),
  reportSubmissionNoteUpdate: t.field({
    type: ReportNoteType,
    args: { id: t.arg.id({ required: true }), note: t.arg.string({ required: true }) },
    authScopes: { permission: "ReportSubmissionNoteUpdate" },
    resolve: (_root, args, ctx) => updateNote(ctx, String(args.id), args.note),
  }),
  reportSubmissionNoteArchive: t.field({
    type: ReportNoteType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportSubmissionNoteArchive" },
    resolve: (_root, args, ctx) => archiveNote(ctx, String(args.id)),
  }),
}));

builder.mutationFields((t) => ({
  reportSubmissionAnswerRedact: t.field({
    type: ReportSubmissionType,
    description: "Replaces a span of one text of an answer by the redaction marker; start and end are UTF-16 offsets into the text as shown.",
    args: {
      id: t.arg.id({ required: true }),
      widgetID: t.arg.string({ required: true }),
      index: t.arg.int({ required: true, description: "Which text of the answer's texts." }),
      start: t.arg.int({ required: true }),
      end: t.arg.int({ required: true }),
    },
    authScopes: { permission: "ReportSubmissionRedact" },
    resolve: (_root, args, ctx) => redactAnswer(ctx, String(args.id), { widgetID: args.widgetID, index: args.index, start: args.start, end: args.end }),
  }),
  reportConversationMessageRedact: t.field({
    type: MessageType,
    description: "Replaces a span of a chat message's text by the redaction marker; open chats are told.",
    args: { id: t.arg.id({ required: true }), start: t.arg.int({ required: true }), end: t.arg.int({ required: true }) },
    authScopes: { permission: "ReportSubmissionRedact" },
    resolve: (_root, args, ctx) => redactMessage(ctx, String(args.id), args.start, args.end),
  }),
}));
