import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from "graphql";
import { builder } from "../../graphql/builder.ts";
import { AttachmentType, WidgetTypeEnum } from "../reporting/graphql-types.ts";
import "./graphql-live.ts";
import { getReport, reportAnswers, reportAttachments, reportPagesCount, type ReportAnswerPageView, type ReportAnswerView } from "./detail.ts";
import { ReportListFilterEnum, ReportListType, ReportSubmissionType, SortDirectionEnum, SortKeyEnum } from "./graphql-types.ts";
import { listReports } from "./list.ts";
import { withOpenedFileNames } from "../files/sealed-files.ts";
import { organisationUserStats, reportStats, userStats, type OrganisationUserStats, type ReportStats, type UserStats } from "./stats.ts";

/** Report list, detail and stats queries (spec section 7, Queries). */

const DateFilterInput = builder.inputType("DateFilterInput", {
  description: "Inclusive calendar days (YYYY-MM-DD, UTC) on the report's completion date.",
  fields: (t) => ({ from: t.string(), to: t.string() }),
});

const ReportSearchInput = builder.inputType("ReportSearchInput", {
  fields: (t) => ({
    text: t.string(),
    filter: t.field({ type: ReportListFilterEnum }),
    tagIDs: t.idList(),
    sortBy: t.field({ type: SortKeyEnum }),
    sortDir: t.field({ type: SortDirectionEnum }),
    organisationID: t.id(),
    excludeTestReports: t.boolean(),
    dateFilter: t.field({ type: DateFilterInput }),
  }),
});

const ReportAnswerType = builder.objectRef<ReportAnswerView>("ReportAnswer").implement({
  fields: (t) => ({
    widgetID: t.exposeString("widgetID"),
    title: t.exposeString("title"),
    type: t.expose("type", { type: WidgetTypeEnum }),
    answer: t.exposeStringList("answer"),
  }),
});

const ReportAnswerPageType = builder.objectRef<ReportAnswerPageView>("ReportAnswerPage").implement({
  fields: (t) => ({ name: t.exposeString("name"), answers: t.expose("answers", { type: [ReportAnswerType] }) }),
});

// Detail-only parts: each costs its own queries, so they run only when a query selects them.
builder.objectFields(ReportSubmissionType, (t) => ({
  answers: t.field({ type: [ReportAnswerPageType], resolve: (report, _args, ctx) => reportAnswers(ctx, report) }),
  attachments: t.field({ type: [AttachmentType], resolve: async (report, _args, ctx) => withOpenedFileNames(ctx, ctx.db, report.organisation.id, await reportAttachments(ctx, report)) }),
  pagesCount: t.int({ resolve: (report, _args, ctx) => reportPagesCount(ctx, report) }),
}));

const ReportStatsType = builder.objectRef<ReportStats>("ReportStats").implement({
  fields: (t) => ({
    totalReports: t.exposeInt("totalReports"),
    newReports: t.exposeInt("newReports"),
    assignedReports: t.exposeInt("assignedReports"),
    closedReports: t.exposeInt("closedReports"),
    newReportsDailyAverage: t.exposeFloat("newReportsDailyAverage"),
    closedReportsDailyAverage: t.exposeFloat("closedReportsDailyAverage"),
  }),
});

const OrganisationUserStatsType = builder.objectRef<OrganisationUserStats>("OrganisationUserStats").implement({
  fields: (t) => ({ unreadMessages: t.exposeInt("unreadMessages"), unassignedReports: t.exposeInt("unassignedReports") }),
});

const UserStatsType = builder.objectRef<UserStats>("UserStats").implement({
  fields: (t) => ({ guestOrganisationCount: t.exposeInt("guestOrganisationCount"), pendingInvites: t.exposeInt("pendingInvites") }),
});

/** The fields a selection asks for, through fragments too. */
function selectedFields(info: GraphQLResolveInfo, selectionSet: SelectionSetNode | undefined, into = new Map<string, SelectionSetNode | undefined>()) {
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === Kind.FIELD) into.set(selection.name.value, selection.selectionSet);
    else if (selection.kind === Kind.INLINE_FRAGMENT) selectedFields(info, selection.selectionSet, into);
    else selectedFields(info, info.fragments[selection.name.value]?.selectionSet, into);
  }
  return into;
}

/** Whether the list's reports are asked for a count: each costs a subquery per report, and the console's list shows none. */
function asksForCounts(info: GraphQLResolveInfo): boolean {
  const list = info.fieldNodes.flatMap((node) => [...selectedFields(info, selectedFields(info, node.selectionSet).get("list"))].map(([name]) => name));
  return list.includes("attachmentsCount") || list.includes("unreadMessages");
}

const idOrNull = (id: string | number | null | undefined) => (id === null || id === undefined ? null : String(id));

builder.queryFields((t) => ({
  reportSubmissions: t.field({
    type: ReportListType,
    args: { search: t.arg({ type: ReportSearchInput }), reportFormID: t.arg.id(), limit: t.arg.int(), offset: t.arg.int() },
    authScopes: { permission: "ReportSubmissionList" },
    resolve: (_root, args, ctx, info) => {
      const search = args.search ? { ...args.search, organisationID: idOrNull(args.search.organisationID), tagIDs: args.search.tagIDs?.map(String) ?? null } : null;
      // `limit: -1` over GraphQL is just an invalid limit: only the exports may take every row.
      return listReports(ctx, { search, reportFormID: idOrNull(args.reportFormID), limit: args.limit, offset: args.offset }, asksForCounts(info));
    },
  }),
  reportSubmissionGet: t.field({
    type: ReportSubmissionType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportSubmissionRead" },
    resolve: (_root, args, ctx) => getReport(ctx, String(args.id)),
  }),
  reportStats: t.field({
    type: ReportStatsType,
    args: { organisationID: t.arg.id(), dateFilter: t.arg({ type: DateFilterInput }) },
    authScopes: { permission: "ReportSubmissionList" },
    resolve: (_root, args, ctx) => reportStats(ctx, { organisationID: idOrNull(args.organisationID), dateFilter: args.dateFilter }),
  }),
  organisationUserStats: t.field({
    type: OrganisationUserStatsType,
    args: { organisationID: t.arg.id() },
    authScopes: { permission: "ReportSubmissionList" },
    resolve: (_root, args, ctx) => organisationUserStats(ctx, { organisationID: idOrNull(args.organisationID) }),
  }),
  userStats: t.field({
    type: UserStatsType,
    authScopes: { staff: true },
    resolve: (_root, _args, ctx) => userStats(ctx),
  }),
}));
