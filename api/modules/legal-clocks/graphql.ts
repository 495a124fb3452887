import { builder } from "../../graphql/builder.ts";
import { LEGAL_CLOCK_STATES } from "../../shared/legal-clocks.ts";
import { ReportSubmissionType } from "../reports/graphql-types.ts";
import type { LegalClocks } from "./clocks.ts";
import { legalClockCounts, recordFeedbackGiven, reportLegalClocks, type LegalClockCounts } from "./service.ts";

/** Legal clocks on the staff report, the feedback mutation and the dashboard's counts (decision 050). */

const LegalClockStateEnum = builder.enumType("LegalClockState", { values: LEGAL_CLOCK_STATES });

const LegalClocksType = builder.objectRef<LegalClocks>("LegalClocks").implement({
  fields: (t) => ({
    acknowledgeBy: t.expose("acknowledgeBy", { type: "DateTime" }),
    acknowledgedAt: t.expose("acknowledgedAt", { type: "DateTime", nullable: true }),
    acknowledgeState: t.expose("acknowledgeState", { type: LegalClockStateEnum }),
    feedbackBy: t.expose("feedbackBy", { type: "DateTime" }),
    feedbackAt: t.expose("feedbackAt", { type: "DateTime", nullable: true }),
    feedbackState: t.expose("feedbackState", { type: LegalClockStateEnum }),
  }),
});

const LegalClockCountsType = builder.objectRef<LegalClockCounts>("LegalClockCounts").implement({
  fields: (t) => ({
    acknowledgeDueSoon: t.exposeInt("acknowledgeDueSoon"),
    acknowledgeOverdue: t.exposeInt("acknowledgeOverdue"),
    feedbackDueSoon: t.exposeInt("feedbackDueSoon"),
    feedbackOverdue: t.exposeInt("feedbackOverdue"),
  }),
});

builder.objectFields(ReportSubmissionType, (t) => ({
  legalClocks: t.field({
    type: LegalClocksType,
    nullable: true,
    description: "Null when the report's organisation has legal deadlines off.",
    resolve: (report, _args, ctx) => reportLegalClocks(ctx, report),
  }),
}));

builder.queryFields((t) => ({
  legalClockCounts: t.field({
    type: LegalClockCountsType,
    args: { organisationID: t.arg.id() },
    authScopes: { permission: "ReportSubmissionList" },
    resolve: (_root, args, ctx) => legalClockCounts(ctx, { organisationID: args.organisationID == null ? null : String(args.organisationID) }),
  }),
}));

builder.mutationFields((t) => ({
  reportSubmissionFeedbackGiven: t.field({
    type: ReportSubmissionType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportSubmissionUpdate" },
    resolve: (_root, args, ctx) => recordFeedbackGiven(ctx, String(args.id)),
  }),
}));
