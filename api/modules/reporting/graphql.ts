import { builder } from "../../graphql/builder.ts";
import { UserError } from "../../lib/errors.ts";
import { verifyPassword } from "../../lib/passwords.ts";
import { parseWith } from "../../lib/validation.ts";
import { AnswersInput } from "./answers.ts";
import { completeReport } from "./complete.ts";
import { requireReporter, updateReportPage } from "./draft.ts";
import { findPublishedForm, REPORT_FORM_NOT_FOUND, reporterFormView } from "./forms.ts";
import { changeReportPassword } from "./login.ts";
import { createReporterSession, rememberUnlockedForm } from "./sessions.ts";
import { REPORTER_ABSOLUTE_TIMEOUT_MS, REPORTER_COOKIE } from "./session-policy.ts";
import { loadReporterSubmission } from "./follow-up.ts";
import { sendEnquiry } from "./enquiry.ts";
import { EnquiryResultType, ReportAnswerInput, ReportCompletionType, ReporterSubmissionType, ReporterFormType, ReportUpdateResultType } from "./graphql-types.ts";

builder.queryFields((t) => ({
  reporterSubmission: t.field({
    type: ReporterSubmissionType,
    nullable: true,
    description: "The report this reporter session holds, for the follow-up area.",
    resolve: (_root, _args, ctx) => loadReporterSubmission(ctx),
  }),
  reportSubmissionForm: t.field({
    type: ReporterFormType,
    description: "A published form of the organisation this host names, as a reporter sees it.",
    args: { reportFormID: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const organisation = ctx.host.organisation;
      const form = organisation ? await findPublishedForm(ctx.db, organisation.id, String(args.reportFormID)) : null;
      if (!form) throw new UserError("NOT_FOUND", REPORT_FORM_NOT_FOUND);
      return reporterFormView(ctx.db, form, ctx.actor);
    },
  }),
}));

builder.mutationFields((t) => ({
  reportFormUnlock: t.boolean({
    args: { reportFormID: t.arg.id({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const organisation = ctx.host.organisation;
      const form = organisation ? await findPublishedForm(ctx.db, organisation.id, String(args.reportFormID)) : null;
      if (!form || !organisation) throw new UserError("NOT_FOUND", REPORT_FORM_NOT_FOUND);
      if (form.pinHash === null) return true;
      // Anonymous, so in the open hashing lane: a flood of guesses cannot take the lane paid sign-ins use.
      if (args.password.length > 200 || !(await verifyPassword(form.pinHash, args.password, "open"))) return false;
      let tokenHash = ctx.actor.kind === "reporter" ? ctx.actor.sessionTokenHash : null;
      if (!tokenHash) {
        const opened = await ctx.db.transaction((tx) => createReporterSession(tx, organisation.id));
        ctx.cookies.set(REPORTER_COOKIE, opened.token, Math.floor(REPORTER_ABSOLUTE_TIMEOUT_MS / 1000));
        tokenHash = opened.tokenHash;
      }
      await rememberUnlockedForm(ctx.db, ctx.services.invalidator, tokenHash, form.id);
      return true;
    },
  }),
  userReportSubmissionUpdate: t.field({
    type: ReportUpdateResultType,
    args: {
      page: t.arg.int({ required: true }),
      answers: t.arg({ type: [ReportAnswerInput], required: true }),
      attachments: t.arg.idList(),
    },
    resolve: (_root, args, ctx) => {
      const answers = parseWith(AnswersInput, args.answers.map((answer) => ({ widgetID: answer.widgetID, answer: answer.answer })));
      return updateReportPage(ctx, args.page, answers, args.attachments ? args.attachments.map(String) : null);
    },
  }),
  guestSendEnquiry: t.field({
    type: EnquiryResultType,
    // verifyToken: a solved proof-of-work challenge when the server asked for one (decision 016).
    args: { organisationID: t.arg.id({ required: true }), message: t.arg.string({ required: true }), verifyToken: t.arg.string() },
    resolve: (_root, args, ctx) => sendEnquiry(ctx, String(args.organisationID), { message: args.message }, args.verifyToken ?? null),
  }),
  userReportSubmissionComplete: t.field({ type: ReportCompletionType, resolve: (_root, _args, ctx) => completeReport(ctx) }),
  userReportSubmissionChangePassword: t.boolean({
    args: { oldPassword: t.arg.string({ required: true }), newPassword: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => {
      requireReporter(ctx);
      if (!args.oldPassword || !args.newPassword) throw new UserError("BAD_USER_INPUT", "Required");
      return changeReportPassword(ctx, args.oldPassword, args.newPassword);
    },
  }),
}));

