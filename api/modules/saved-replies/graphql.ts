import { builder } from "../../graphql/builder.ts";
import { archiveSavedReply, createSavedReply, listSavedReplies, updateSavedReply, type SavedReplyView } from "./service.ts";

export const SavedReplyType = builder.objectRef<SavedReplyView>("SavedReply").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    title: t.exposeString("title"),
    body: t.exposeString("body"),
    archived: t.exposeBoolean("archived"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const SavedReplyInput = builder.inputType("SavedReplyInput", {
  fields: (t) => ({ title: t.string({ required: true }), body: t.string({ required: true }) }),
});

const organisationIdOf = (value: string | number | null | undefined) => (value ? String(value) : null);

builder.queryFields((t) => ({
  savedReplies: t.field({
    type: [SavedReplyType],
    description: "The organisation's saved replies by title (a super admin names the organisation); archived ones only with includeArchived.",
    args: { organisationID: t.arg.id(), includeArchived: t.arg.boolean() },
    authScopes: { permission: "SavedReplyList" },
    resolve: (_root, args, ctx) => listSavedReplies(ctx, organisationIdOf(args.organisationID), args.includeArchived ?? false),
  }),
}));

builder.mutationFields((t) => ({
  savedReplyCreate: t.field({
    type: SavedReplyType,
    args: { organisationID: t.arg.id(), input: t.arg({ type: SavedReplyInput, required: true }) },
    authScopes: { permission: "SavedReplyCreate" },
    resolve: (_root, args, ctx) => createSavedReply(ctx, organisationIdOf(args.organisationID), args.input),
  }),
  savedReplyUpdate: t.field({
    type: SavedReplyType,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: SavedReplyInput, required: true }) },
    authScopes: { permission: "SavedReplyUpdate" },
    resolve: (_root, args, ctx) => updateSavedReply(ctx, String(args.id), args.input),
  }),
  savedReplyArchive: t.field({
    type: SavedReplyType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "SavedReplyArchive" },
    resolve: (_root, args, ctx) => archiveSavedReply(ctx, String(args.id)),
  }),
}));
