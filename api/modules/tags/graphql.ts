import { builder } from "../../graphql/builder.ts";
import { LIST_FILTERS } from "../../shared/enums.ts";
import { ReportSubmissionType } from "../reports/graphql-types.ts";
import { assignReportTags } from "./report-tags.ts";
import { createTag, getTag, listTags, renameTag, setTagArchived, type TagView } from "./service.ts";

/** All, Active (the default) or Archived: the filter of the console's plain lists. */
export const ListFilterEnum = builder.enumType("ListFilter", { values: LIST_FILTERS });

export const TagType = builder.objectRef<TagView>("Tag").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    isInternal: t.exposeBoolean("isInternal"),
    archived: t.exposeBoolean("archived"),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    submissionsCount: t.exposeInt("submissionsCount"),
  }),
});

const TagListType = builder.objectRef<{ total: number; list: TagView[] }>("TagList").implement({
  fields: (t) => ({ total: t.exposeInt("total"), list: t.expose("list", { type: [TagType] }) }),
});

builder.queryFields((t) => ({
  tags: t.field({
    type: TagListType,
    args: { organisationID: t.arg.id(), search: t.arg.string(), filter: t.arg({ type: ListFilterEnum }), limit: t.arg.int(), offset: t.arg.int() },
    authScopes: { permission: "TagList" },
    resolve: (_root, args, ctx) => listTags(ctx, { ...args, organisationID: args.organisationID ? String(args.organisationID) : null }),
  }),
  tagGet: t.field({
    type: TagType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "TagRead" },
    resolve: (_root, args, ctx) => getTag(ctx, String(args.id)),
  }),
}));

builder.mutationFields((t) => ({
  tagCreate: t.field({
    type: TagType,
    args: { organisationID: t.arg.id(), name: t.arg.string({ required: true }) },
    authScopes: { permission: "TagCreate" },
    resolve: (_root, args, ctx) => createTag(ctx, args.organisationID ? String(args.organisationID) : null, args.name),
  }),
  tagUpdate: t.field({
    type: TagType,
    args: { id: t.arg.id({ required: true }), newName: t.arg.string({ required: true }) },
    authScopes: { permission: "TagUpdate" },
    resolve: (_root, args, ctx) => renameTag(ctx, String(args.id), args.newName),
  }),
  tagArchive: t.field({
    type: TagType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "TagArchive" },
    resolve: (_root, args, ctx) => setTagArchived(ctx, String(args.id), true),
  }),
  tagUnarchive: t.field({
    type: TagType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "TagUnarchive" },
    resolve: (_root, args, ctx) => setTagArchived(ctx, String(args.id), false),
  }),
  reportSubmissionAssignTags: t.field({
    type: ReportSubmissionType,
    args: { id: t.arg.id({ required: true }), tags: t.arg.idList({ required: true }) },
    authScopes: { permission: "ReportSubmissionInternalReference" },
    resolve: (_root, args, ctx) => assignReportTags(ctx, String(args.id), args.tags.map(String)),
  }),
}));
