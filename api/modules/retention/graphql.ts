import { builder } from "../../graphql/builder.ts";
import { ReportSubmissionType } from "../reports/graphql-types.ts";
import { reportRetention, setLegalHold } from "./service.ts";

/** Retention's fields on the staff report and the legal hold mutation (decision 052). */

builder.objectFields(ReportSubmissionType, (t) => ({
  legalHold: t.boolean({
    description: "A legal hold stops deletion by retention while it lasts.",
    resolve: async (report, _args, ctx) => (await reportRetention(ctx, report)).legalHold,
  }),
  closedAt: t.field({
    type: "DateTime",
    nullable: true,
    description: "When the report was last closed; null while it is open.",
    resolve: async (report, _args, ctx) => (await reportRetention(ctx, report)).closedAt,
  }),
  deletionDueAt: t.field({
    type: "DateTime",
    nullable: true,
    description: "When retention deletes the report; null when retention is off, or the report is held or open.",
    resolve: async (report, _args, ctx) => (await reportRetention(ctx, report)).deletionDueAt,
  }),
}));

builder.mutationFields((t) => ({
  reportSubmissionLegalHold: t.field({
    type: ReportSubmissionType,
    args: { id: t.arg.id({ required: true }), hold: t.arg.boolean({ required: true }) },
    authScopes: { permission: "ReportSubmissionLegalHold" },
    resolve: (_root, args, ctx) => setLegalHold(ctx, String(args.id), args.hold),
  }),
}));
