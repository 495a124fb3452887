import { builder } from "../../graphql/builder.ts";
import { loadBuild } from "../forms/builds.ts";
import { ReportFormBuildType, WidgetInput } from "../forms/graphql-types.ts";
import { ListFilterEnum } from "../tags/graphql.ts";
import { createTemplate, getTemplate, listTemplates, setTemplateArchived, updateTemplate, type TemplateView } from "./service.ts";

const ReportFormTemplateType = builder.objectRef<TemplateView>("ReportFormTemplate").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    archived: t.exposeBoolean("archived"),
    currentBuild: t.field({ type: ReportFormBuildType, nullable: true, resolve: (template, _args, ctx) => loadBuild(ctx.db, template.currentBuildId) }),
  }),
});

const ReportFormTemplateListType = builder.objectRef<{ total: number; list: TemplateView[] }>("ReportFormTemplateList").implement({
  fields: (t) => ({ total: t.exposeInt("total"), list: t.expose("list", { type: [ReportFormTemplateType] }) }),
});

const ReportFormTemplateInput = builder.inputType("ReportFormTemplateInput", {
  fields: (t) => ({ name: t.string({ required: true }), widgets: t.field({ type: [WidgetInput], required: true }), baseRevision: t.int() }),
});

builder.queryFields((t) => ({
  reportFormTemplates: t.field({
    type: ReportFormTemplateListType,
    args: { search: t.arg.string(), filter: t.arg({ type: ListFilterEnum }), limit: t.arg.int(), offset: t.arg.int() },
    authScopes: { permission: "ReportFormTemplateList" },
    resolve: (_root, args, ctx) => listTemplates(ctx, args),
  }),
  reportFormTemplateGet: t.field({
    type: ReportFormTemplateType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportFormTemplateRead" },
    resolve: (_root, args, ctx) => getTemplate(ctx, String(args.id)),
  }),
}));

builder.mutationFields((t) => ({
  reportFormTemplateCreate: t.field({
    type: ReportFormTemplateType,
    args: { input: t.arg({ type: ReportFormTemplateInput, required: true }) },
    authScopes: { permission: "ReportFormTemplateCreate" },
    resolve: (_root, args, ctx) => createTemplate(ctx, args.input),
  }),
  reportFormTemplateUpdate: t.field({
    type: ReportFormTemplateType,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: ReportFormTemplateInput, required: true }) },
    authScopes: { permission: "ReportFormTemplateUpdate" },
    resolve: (_root, args, ctx) => updateTemplate(ctx, String(args.id), args.input),
  }),
  reportFormTemplateArchive: t.field({
    type: ReportFormTemplateType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportFormTemplateArchive" },
    resolve: (_root, args, ctx) => setTemplateArchived(ctx, String(args.id), true),
  }),
  reportFormTemplateUnarchive: t.field({
    type: ReportFormTemplateType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportFormTemplateUnarchive" },
    resolve: (_root, args, ctx) => setTemplateArchived(ctx, String(args.id), false),
  }),
}));
