import { and, eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reportForms, reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx, ReporterActor, Services } from "../../context.ts";
import type { Sealer } from "../../lib/key-ring.ts";
import { logError } from "../../lib/log.ts";
import { UserError } from "../../lib/errors.ts";
import { generateReportId, generateReportPassword, hashGeneratedCredential } from "../../lib/report-credentials.ts";
import { checkPageAnswers, derivePages, pageHasContent, visibleWidgetIds, type AnswerMap, type FormWidget } from "../../shared/form-definition.ts";
import { recordActivity } from "../audit/service.ts";
import { ALREADY_SUBMITTED, requireReporter, type FieldError } from "./draft.ts";
import { onDraft, STALE } from "./draft-access.ts";
import { writeCompletion, type DraftRow } from "./draft-statements.ts";
import { buildWidgets } from "./forms.ts";

/** A repeated completion from the same session within this window re-issues credentials. */
export const REISSUE_WINDOW_MS = 10 * 60 * 1000;

export interface ReportCompletion {
  reportID: string;
  generatedPassword: string;
}

export const newReportTopic = (organisationId: string) => `report.new.${organisationId}`;

/**
 * The new-report event, sent after the report's transaction committed (decision 028). The report
 * and its mail job, if it has one, are saved by then, so a failure here must not fail the
 * reporter's request: it is logged, the job workers' poll still finds the job, and consoles' live
 * counts catch up on their next refresh. `mailQueued` tells the notifiers whether there is a job to
 * run now; an event without it comes from an earlier release, whose report left a notice to claim.
 */
export async function announceNewReport(services: Services, organisationId: string, submissionId: string, mailQueued: boolean): Promise<void> {
  try {
    await services.pubsub.publish(newReportTopic(organisationId), { submissionId, mailQueued });
  } catch (error) {
    logError("Could not announce a new report", error);
  }
}

/**
 * Completes the session's Draft: every visible page must hold its required answers; answers to
 * widgets that ended up hidden are dropped. The report gets its ID and a generated password,
 * stored only as a hash, and becomes New. Completing again from the same session shortly after
 * (a lost response, a double click) returns the same report with a fresh password: one report,
 * and the reporter is never left without working credentials.
 *
 * One read and one write (draft-statements.ts); a completion that lost a race with a save of the
 * same Draft, or whose report ID was taken meanwhile, is decided again.
 */
export async function completeReport(ctx: Ctx): Promise<ReportCompletion> {
  const actor = requireReporter(ctx);
  const generatedPassword = generateReportPassword();
  // 100 random bits need no memory-hard hash (docs/decisions/005): microseconds, no hashing gate.
  const passwordHash = hashGeneratedCredential(generatedPassword);
  const now = new Date();
  let completed: { id: string; mailQueued: boolean } | null = null;
  const completion = await onDraft(ctx, actor, async (db, snapshot, confirmed, sealer) => {
    // Completed or not, this instance will not save the Draft again.
    ctx.services.draftSnapshots.forget(snapshot.submission.id);
    if (snapshot.submission.completed) return reissue(db, actor, snapshot.submission, generatedPassword, passwordHash, now);
    const { problems, hidden } = completionProblems(await buildWidgets(db, snapshot.submission.buildId!), snapshot.answers);
    if (problems.length > 0) {
      if (!confirmed) return STALE;
      throw new UserError("BAD_USER_INPUT", "Please answer every required question.", { fields: problems });
    }
    const reportID = generateReportId();
    const sealedAcknowledgement = await sealedAcknowledgementOf(db, sealer, snapshot.submission.formId);
    const outcome = await writeCompletion(db, {
      snapshot,
      reportId: reportID,
      passwordHash,
      hiddenWidgetIds: hidden,
      now,
      sealedAcknowledgement,
    });
    // A taken report ID (one in 10^15 per report) is decided again like a moved-on Draft, with a new ID.
    if (outcome.kind !== "completed") return STALE;
    completed = { id: snapshot.submission.id, mailQueued: outcome.mailQueued };
    return { reportID, generatedPassword };
  });
  // Outside onDraft: its second try runs in a transaction, and the event must follow the commit. Not
  // awaited: the reporter's answer needs nothing from it (the mail job is saved), only consoles do.
  const done = completed as { id: string; mailQueued: boolean } | null;
  if (done) void announceNewReport(ctx.services, actor.organisationId, done.id, done.mailQueued);
  return completion;
}

/**
 * The form's automatic acknowledgement sealed as a chat message, or "" when it has none (decision 051).
 * Read at completion, not cached: an admin's change to it must apply to the next report.
 */
async function sealedAcknowledgementOf(db: Database, sealer: Sealer, formId: string): Promise<string> {
  const [form] = await db.select({ text: reportForms.acknowledgementMessage }).from(reportForms).where(eq(reportForms.id, formId)).limit(1);
  const text = form?.text.trim() ?? "";
  return text === "" ? "" : sealer.sealText("message", text);
}

/** A repeat within the window gives the same report a fresh password; later, it is refused. */
async function reissue(db: Database, actor: ReporterActor, submission: DraftRow, generatedPassword: string, passwordHash: string, now: Date): Promise<ReportCompletion> {
  const recent = submission.completedAt && now.getTime() - submission.completedAt.getTime() < REISSUE_WINDOW_MS;
  if (!recent || !submission.reportId) throw new UserError("CONFLICT", ALREADY_SUBMITTED);
  const reportID = submission.reportId;
  await db.transaction(async (tx) => {
    await tx.update(reportSubmissions).set({ passwordHash, passwordChosen: false }).where(and(eq(reportSubmissions.id, submission.id), eq(reportSubmissions.completed, true)));
    await recordActivity(tx, actor, { organisationId: actor.organisationId, objectType: "ReportSubmission", objectId: submission.id, objectCode: reportID, action: "ReissueCredentials" });
  });
  return { reportID, generatedPassword };
}

/** Required answers missing on visible pages, and the stored answers to widgets hidden now. */
function completionProblems(widgets: FormWidget[], answers: AnswerMap): { problems: FieldError[]; hidden: string[] } {
  const visible = visibleWidgetIds(widgets, answers);
  const problems: FieldError[] = [];
  for (const page of derivePages(widgets)) {
    if (!pageHasContent(page, visible)) continue;
    for (const problem of checkPageAnswers(page.widgets, visible, answers).problems) problems.push({ field: problem.widgetId, message: problem.message });
  }
  return { problems, hidden: Object.keys(answers).filter((widgetId) => !visible.has(widgetId)) };
}
