import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reportConversations, reportSubmissionAnswers, reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { generateReportId, generateReportPassword, hashGeneratedCredential } from "../../lib/report-credentials.ts";
import { checkPageAnswers, derivePages, pageHasContent, visibleWidgetIds } from "../../shared/form-definition.ts";
import { recordActivity } from "../audit/service.ts";
import { storedAnswers } from "./answers.ts";
import { ALREADY_SUBMITTED, lockDraft, requireReporter, type FieldError } from "./draft.ts";
import { buildWidgets } from "./forms.ts";

/** A repeated completion from the same session within this window re-issues credentials. */
export const REISSUE_WINDOW_MS = 10 * 60 * 1000;

export interface ReportCompletion {
  reportID: string;
  generatedPassword: string;
}

export const newReportTopic = (organisationId: string) => `report.new.${organisationId}`;

/**
 * Completes the session's Draft: every visible page must hold its required answers; answers to
 * widgets that ended up hidden are dropped. The report gets its ID and a generated password,
 * stored only as a hash, and becomes New. Completing again from the same session shortly after
 * (a lost response, a double click) returns the same report with a fresh password: one report,
 * and the reporter is never left without working credentials.
 */
export async function completeReport(ctx: Ctx): Promise<ReportCompletion> {
  const actor = requireReporter(ctx);
  const generatedPassword = generateReportPassword();
  // 100 random bits need no memory-hard hash (docs/decisions/005): microseconds, no hashing gate.
  const passwordHash = hashGeneratedCredential(generatedPassword);
  const now = new Date();
  const completion = await ctx.db.transaction(async (tx) => {
    const submission = await lockDraft(tx, actor);
    if (submission.completed) {
      const recent = submission.completedAt && now.getTime() - submission.completedAt.getTime() < REISSUE_WINDOW_MS;
      if (!recent || !submission.reportId) throw new UserError("CONFLICT", ALREADY_SUBMITTED);
      await tx.update(reportSubmissions).set({ passwordHash, passwordChosen: false }).where(eq(reportSubmissions.id, submission.id));
      await recordActivity(tx, actor, { organisationId: actor.organisationId, objectType: "ReportSubmission", objectId: submission.id, objectCode: submission.reportId, action: "ReissueCredentials" });
      return { reportID: submission.reportId, generatedPassword, fresh: false, submissionId: submission.id };
    }
    const problems = await completionProblems(tx, submission.id, submission.buildId!);
    if (problems.length > 0) throw new UserError("BAD_USER_INPUT", "Please answer every required question.", { fields: problems });

    const reportID = await uniqueReportId(tx);
    // Independent writes, sent together (pipelined on the transaction's connection); the row lock orders completions.
    await Promise.all([
      tx
        .update(reportSubmissions)
        .set({ reportId: reportID, passwordHash, passwordChosen: false, status: "New", completed: true, completedAt: now, updatedAt: now })
        .where(eq(reportSubmissions.id, submission.id)),
      tx.insert(reportConversations).values({ submissionId: submission.id, organisationId: actor.organisationId }).onConflictDoNothing(),
      recordActivity(tx, actor, { organisationId: actor.organisationId, objectType: "ReportSubmission", objectId: submission.id, objectCode: reportID, action: "Complete" }),
    ]);
    return { reportID, generatedPassword, fresh: true, submissionId: submission.id };
  });
  if (completion.fresh) await ctx.services.pubsub.publish(newReportTopic(actor.organisationId), { submissionId: completion.submissionId });
  return { reportID: completion.reportID, generatedPassword: completion.generatedPassword };
}

/** Required answers missing on visible pages; also removes answers to widgets that are hidden now. */
async function completionProblems(tx: Database, submissionId: string, buildId: string): Promise<FieldError[]> {
  const widgets = await buildWidgets(tx, buildId);
  const answers = await storedAnswers(tx, submissionId);
  const visible = visibleWidgetIds(widgets, answers);
  const problems: FieldError[] = [];
  for (const page of derivePages(widgets)) {
    if (!pageHasContent(page, visible)) continue;
    for (const problem of checkPageAnswers(page.widgets, visible, answers).problems) problems.push({ field: problem.widgetId, message: problem.message });
  }
  const hidden = Object.keys(answers).filter((widgetId) => !visible.has(widgetId));
  if (hidden.length > 0) {
    await tx.delete(reportSubmissionAnswers).where(and(eq(reportSubmissionAnswers.submissionId, submissionId), inArray(reportSubmissionAnswers.widgetId, hidden)));
  }
  return problems;
}

async function uniqueReportId(tx: Database): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const candidate = generateReportId();
    const [taken] = await tx.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.reportId, candidate)).limit(1);
    if (!taken) return candidate;
  }
  throw new Error("Could not find a free report ID");
}

