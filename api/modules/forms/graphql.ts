import { builder } from "../../graphql/builder.ts";
import { ListFilterEnum } from "../tags/graphql.ts";
import { ReportFormInput, ReportFormListType, ReportFormNoteListType, ReportFormNoteType, ReportFormType } from "./graphql-types.ts";
import { publishForm, secureForm, setFormArchived, toggleFormLock, unpublishForm } from "./lifecycle.ts";
import { getForm, listForms } from "./list.ts";
import { archiveFormNote, createFormNote, listFormNotes, updateFormNote } from "./notes.ts";
import { createForm, updateForm } from "./save.ts";


builder.queryFields((t) => ({
  reportForms: t.field({
    type: ReportFormListType,
    args: { organisationID: t.arg.id(), search: t.arg.string(), filter: t.arg({ type: ListFilterEnum }), limit: t.arg.int(), offset: t.arg.int() },
    authScopes: { permission: "ReportFormList" },
    resolve: (_root, args, ctx) => listForms(ctx, { ...args, organisationID: args.organisationID ? String(args.organisationID) : null }),
  }),
  reportFormGet: t.field({
    type: ReportFormType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportFormRead" },
    resolve: (_root, args, ctx) => getForm(ctx, String(args.id)),
  }),
  reportFormNotes: t.field({
    type: ReportFormNoteListType,
    args: { reportFormID: t.arg.id({ required: true }), limit: t.arg.int(), offset: t.arg.int() },
    authScopes: { permission: "ReportFormNoteList" },
    resolve: (_root, args, ctx) => listFormNotes(ctx, String(args.reportFormID), args.limit, args.offset),
  }),
}));

builder.mutationFields((t) => ({
  reportFormCreate: t.field({
    type: ReportFormType,
    args: { input: t.arg({ type: ReportFormInput, required: true }) },
    authScopes: { permission: "ReportFormCreate" },
    resolve: (_root, args, ctx) => createForm(ctx, args.input),
  }),
  reportFormUpdate: t.field({
    type: ReportFormType,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: ReportFormInput, required: true }) },
    authScopes: { permission: "ReportFormUpdate" },
    resolve: (_root, args, ctx) => updateForm(ctx, String(args.id), args.input),
  }),
  reportFormPublish: t.field({
    type: ReportFormType,
    args: { id: t.arg.id({ required: true }), buildID: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportFormPublish" },
    resolve: (_root, args, ctx) => publishForm(ctx, String(args.id), String(args.buildID)),
  }),
  reportFormUnpublish: t.field({
    type: ReportFormType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportFormUnpublish" },
    resolve: (_root, args, ctx) => unpublishForm(ctx, String(args.id)),
  }),
  reportFormSecure: t.field({
    type: ReportFormType,
    args: { id: t.arg.id({ required: true }), password: t.arg.string() },
    authScopes: { permission: "ReportFormUpdate" },
    resolve: (_root, args, ctx) => secureForm(ctx, String(args.id), args.password),
  }),
  reportFormArchive: t.field({
    type: ReportFormType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportFormArchive" },
    resolve: (_root, args, ctx) => setFormArchived(ctx, String(args.id), true),
  }),
  reportFormUnarchive: t.field({
    type: ReportFormType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportFormUnarchive" },
    resolve: (_root, args, ctx) => setFormArchived(ctx, String(args.id), false),
  }),
  reportFormLockToggle: t.field({
    type: ReportFormType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportFormUpdate" },
    resolve: (_root, args, ctx) => toggleFormLock(ctx, String(args.id)),
  }),
  reportFormNoteCreate: t.field({
    type: ReportFormNoteType,
    args: { reportFormID: t.arg.id({ required: true }), note: t.arg.string({ required: true }) },
    authScopes: { permission: "ReportFormNoteCreate" },
    resolve: (_root, args, ctx) => createFormNote(ctx, String(args.reportFormID), args.note),
  }),
  reportFormNoteUpdate: t.field({
    type: ReportFormNoteType,
    args: { id: t.arg.id({ required: true }), note: t.arg.string({ required: true }) },
    authScopes: { permission: "ReportFormNoteUpdate" },
    resolve: (_root, args, ctx) => updateFormNote(ctx, String(args.id), args.note),
  }),
  reportFormNoteArchive: t.field({
    type: ReportFormNoteType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportFormNoteArchive" },
    resolve: (_root, args, ctx) => archiveFormNote(ctx, String(args.id)),
  }),
}));
