import { builder } from "../../graphql/builder.ts";
import { ListFilterEnum } from "../tags/graphql.ts";
import { createResourceDocument, listResourceDocuments, resourceDocumentFileURL, setResourceDocumentArchived, updateResourceDocument, type DocumentView } from "./documents.ts";
import { createResourceVideo, listResourceVideos, setResourceVideoArchived, updateResourceVideo, type VideoView } from "./videos.ts";

// Help resources (spec §2 Resources, §3, §7): read by every signed-in user, managed by those holding
// the Resource permissions (super admins, decision 002). Platform-wide, so no organisationID anywhere.

const ResourceVideoType = builder.objectRef<VideoView>("ResourceVideo").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    title: t.exposeString("title"),
    description: t.exposeString("description"),
    videoSrc: t.exposeString("videoSrc", { description: "An http or https address; the console links to it and never embeds it." }),
    archived: t.exposeBoolean("archived"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

type DocumentBlob = NonNullable<DocumentView["blob"]> & { documentId: string };

const ResourceDocumentBlobType = builder.objectRef<DocumentBlob>("ResourceDocumentBlob").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    fileURL: t.string({ description: "A download for signed-in users.", resolve: (blob) => resourceDocumentFileURL(blob.documentId) }),
    fileName: t.exposeString("fileName"),
    fileSizeBytes: t.exposeInt("fileSizeBytes"),
  }),
});

const ResourceDocumentType = builder.objectRef<DocumentView>("ResourceDocument").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    title: t.exposeString("title"),
    description: t.exposeString("description"),
    blob: t.field({ type: ResourceDocumentBlobType, nullable: true, resolve: (document) => (document.blob ? { ...document.blob, documentId: document.id } : null) }),
    archived: t.exposeBoolean("archived"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const ResourceVideoListType = builder.objectRef<{ total: number; list: VideoView[] }>("ResourceVideoList").implement({
  fields: (t) => ({ total: t.exposeInt("total"), list: t.expose("list", { type: [ResourceVideoType] }) }),
});

const ResourceDocumentListType = builder.objectRef<{ total: number; list: DocumentView[] }>("ResourceDocumentList").implement({
  fields: (t) => ({ total: t.exposeInt("total"), list: t.expose("list", { type: [ResourceDocumentType] }) }),
});

const ResourceVideoInputType = builder.inputType("ResourceVideoInput", {
  fields: (t) => ({
    title: t.string({ required: true }),
    description: t.string({ required: true }),
    videoSrc: t.string({ required: true, description: "An http:// or https:// address." }),
  }),
});

const ResourceDocumentInputType = builder.inputType("ResourceDocumentInput", {
  fields: (t) => ({
    title: t.string({ required: true }),
    description: t.string({ required: true }),
    file: t.field({ type: "File", required: false, description: "Required on create; on update, leaving it out keeps the current file." }),
  }),
});

builder.queryFields((t) => ({
  resourceVideos: t.field({
    type: ResourceVideoListType,
    args: { search: t.arg.string(), filter: t.arg({ type: ListFilterEnum, description: "Archived and All: for those who manage resources." }), limit: t.arg.int(), offset: t.arg.int() },
    authScopes: { permission: "ResourceList" },
    resolve: (_root, args, ctx) => listResourceVideos(ctx, args),
  }),
  resourceDocuments: t.field({
    type: ResourceDocumentListType,
    args: { search: t.arg.string(), filter: t.arg({ type: ListFilterEnum, description: "Archived and All: for those who manage resources." }), limit: t.arg.int(), offset: t.arg.int() },
    authScopes: { permission: "ResourceList" },
    resolve: (_root, args, ctx) => listResourceDocuments(ctx, args),
  }),
}));

builder.mutationFields((t) => ({
  resourceVideoCreate: t.field({
    type: ResourceVideoType,
    args: { input: t.arg({ type: ResourceVideoInputType, required: true }) },
    authScopes: { permission: "ResourceCreate" },
    resolve: (_root, args, ctx) => createResourceVideo(ctx, args.input),
  }),
  resourceVideoUpdate: t.field({
    type: ResourceVideoType,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: ResourceVideoInputType, required: true }) },
    authScopes: { permission: "ResourceUpdate" },
    resolve: (_root, args, ctx) => updateResourceVideo(ctx, String(args.id), args.input),
  }),
  resourceVideoArchive: t.field({
    type: ResourceVideoType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ResourceArchive" },
    resolve: (_root, args, ctx) => setResourceVideoArchived(ctx, String(args.id), true),
  }),
  resourceVideoUnarchive: t.field({
    type: ResourceVideoType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ResourceUnarchive" },
    resolve: (_root, args, ctx) => setResourceVideoArchived(ctx, String(args.id), false),
  }),
  resourceDocumentCreate: t.field({
    type: ResourceDocumentType,
    args: { input: t.arg({ type: ResourceDocumentInputType, required: true }) },
    authScopes: { permission: "ResourceCreate" },
    resolve: (_root, args, ctx) => createResourceDocument(ctx, args.input),
  }),
  resourceDocumentUpdate: t.field({
    type: ResourceDocumentType,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: ResourceDocumentInputType, required: true }) },
    authScopes: { permission: "ResourceUpdate" },
    resolve: (_root, args, ctx) => updateResourceDocument(ctx, String(args.id), args.input),
  }),
  resourceDocumentArchive: t.field({
    type: ResourceDocumentType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ResourceArchive" },
    resolve: (_root, args, ctx) => setResourceDocumentArchived(ctx, String(args.id), true),
  }),
  resourceDocumentUnarchive: t.field({
    type: ResourceDocumentType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ResourceUnarchive" },
    resolve: (_root, args, ctx) => setResourceDocumentArchived(ctx, String(args.id), false),
  }),
}));
