import { eq } from "drizzle-orm";
import * as v from "valibot";
import { organisations } from "../../../db/schema/index.ts";
import type { Config } from "../../config.ts";
import type { Ctx } from "../../context.ts";
import { UserError, forbidden } from "../../lib/errors.ts";
import { logError } from "../../lib/log.ts";
import type { OutgoingMail } from "../../lib/mailer.ts";
import { parseWith } from "../../lib/validation.ts";
import { recordActivity } from "../audit/service.ts";
import { changeReport } from "./events.ts";
import { managesReportOrganisation, TEAM_ONLY } from "./life.ts";
import type { ReportView } from "./views.ts";

/**
 * The Email Report dialog. Mail leaves our control and sits in other people's mailboxes, so the
 * message carries a pointer only: the report ID, the organisation's name and a link to the console,
 * where the recipient must sign in and be allowed to see it. Never answers, messages, notes or names.
 */

export const INVALID_EMAIL = "Invalid email address";
export const MAIL_NOT_SENT = "The email could not be sent. Please try again later.";

const ForwardInput = v.object({
  email: v.pipe(v.string(), v.trim(), v.nonEmpty("Required"), v.maxLength(254, INVALID_EMAIL), v.email(INVALID_EMAIL), v.toLowerCase()),
});

/**
 * The console's detail page on the app host. The listening port is only part of public links in
 * development: in production a proxy serves the standard port in front of it.
 */
/** An absolute address in the console (app.{APP_DOMAIN}), for links in mail. */
export function consoleUrl(config: Pick<Config, "protocol" | "appDomain" | "port" | "production">, path: string): string {
  const defaultPort = config.port === 80 || config.port === 443;
  const port = config.production || defaultPort ? "" : `:${config.port}`;
  return `${config.protocol}://app.${config.appDomain}${port}${path}`;
}

export function reportConsoleUrl(config: Pick<Config, "protocol" | "appDomain" | "port" | "production">, formId: string, submissionId: string): string {
  return consoleUrl(config, `/admin/manage/reports/overview/${formId}/${submissionId}`);
}

export function forwardedReportMail(to: string, report: { reportID: string; organisationName: string; url: string }): OutgoingMail {
  return {
    to,
    subject: `Report ${report.reportID}`,
    text: [
      "A report has been shared with you.",
      "",
      `Organisation: ${report.organisationName}`,
      `Report ID: ${report.reportID}`,
      "",
      "Sign in to the admin console to view it (you need access to this report):",
      report.url,
      "",
    ].join("\n"),
  };
}

/** Assigned users and the organisation's owners and admins may send the link to any address. */
export function forwardReportByEmail(ctx: Ctx, id: unknown, email: string): Promise<ReportView> {
  return changeReport(ctx, id, "ReportSubmissionRead", async (tx, access) => {
    if (!access.assigned && !managesReportOrganisation(access)) throw forbidden(TEAM_ONLY);
    const { email: to } = parseWith(ForwardInput, { email: email ?? "" });
    const [organisation] = await tx.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, access.submission.organisationId));
    const mail = forwardedReportMail(to, {
      reportID: access.submission.reportId ?? "",
      organisationName: organisation?.name ?? "",
      url: reportConsoleUrl(ctx.services.config, access.submission.formId, access.submission.id),
    });
    return {
      action: "ForwardEmail",
      metadata: { email: to },
      // Sending a link changes nothing about the report itself.
      bumpsUpdatedAt: false,
      // The audit entry is committed before the mail leaves (so no mail ever goes out unrecorded) and
      // the SMTP hand-over never holds the report's lock; a failed hand-over is recorded as such.
      afterCommit: async () => {
        try {
          await ctx.services.mailer.send(mail);
        } catch (error) {
          logError("Could not send a forwarded report link", error);
          await recordActivity(ctx.db, access.actor, {
            organisationId: access.submission.organisationId,
            objectType: "ReportSubmission",
            objectId: access.submission.id,
            objectCode: access.submission.reportId,
            action: "ForwardEmailFailed",
            metadata: { email: to },
          }).catch((auditError: unknown) => logError("Could not record a failed forward", auditError));
          throw new UserError("UNAVAILABLE", MAIL_NOT_SENT);
        }
      },
    };
  });
}
