import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reportSubmissions } from "../../../db/schema/index.ts";
import { logError } from "../../lib/log.ts";
import type { Ctx, ReporterActor } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { checkPageAnswers, derivePages, visibleWidgetIds, type AnswerMap } from "../../shared/form-definition.ts";
import type { AnswerInputs } from "./answers.ts";
import { buildWidgets, isUnlocked, REPORT_FORM_NOT_FOUND, requirePublishedForm } from "./forms.ts";
import { bindSessionToSubmission, newReporterSession } from "./sessions.ts";
import { REPORTER_ABSOLUTE_TIMEOUT_MS, REPORTER_COOKIE } from "./session-policy.ts";
import { draftLoad, DRAFTS_FULL, draftStartDifficulty, FORM_DRAFTS_CAP, ORGANISATION_DRAFTS_CAP, refuseDraftsOverCap } from "./draft-limits.ts";
import { startDraft, writePage } from "./draft-statements.ts";
import { onDraft, STALE } from "./draft-access.ts";
import { admit } from "../abuse/guard.ts";
import { subjectKey } from "../abuse/secret.ts";

import { CREDENTIALS_PROBLEM } from "../../shared/messages.ts";
export { CREDENTIALS_PROBLEM };
export const ALREADY_SUBMITTED = "This report has already been submitted.";

export interface FieldError {
  field: string;
  message: string;
}

/** The reporter's own Draft submission, locked for update; anything else is a credentials problem. */
export async function lockDraft(tx: Database, actor: ReporterActor) {
  if (!actor.submissionId) throw new UserError("UNAUTHENTICATED", CREDENTIALS_PROBLEM);
  const [submission] = await tx
    .select()
    .from(reportSubmissions)
    .where(and(eq(reportSubmissions.id, actor.submissionId), eq(reportSubmissions.organisationId, actor.organisationId)))
    .for("update");
  if (!submission) throw new UserError("UNAUTHENTICATED", CREDENTIALS_PROBLEM);
  return submission;
}

export function requireReporter(ctx: Ctx): ReporterActor {
  if (ctx.actor.kind !== "reporter") throw new UserError("UNAUTHENTICATED", CREDENTIALS_PROBLEM);
  return ctx.actor;
}

/**
 * Starts (or resumes) a report: opens a reporter session when there is none, and gives it a Draft
 * submission of this form. A reload or a second tab resumes the same Draft. A new Draft is bounded
 * per form and organisation (draft-limits.ts): beyond a free level it costs proof of work, at the
 * cap it is refused.
 */
export async function startReport(ctx: Ctx, reportFormID: string, answers: AnswerInputs, solution: string | null = null) {
  const organisation = ctx.host.organisation;
  if (!organisation || !isUuid(reportFormID)) throw new UserError("NOT_FOUND", REPORT_FORM_NOT_FOUND);
  const form = await requirePublishedForm(ctx.db, organisation.id, reportFormID);
  if (!isUnlocked(form, ctx.actor)) throw new UserError("FORBIDDEN", "Form password is incorrect");

  const result = (await resumableDraft(ctx, form.id)) ?? (await openDraft(ctx, organisation.id, form, solution));
  // The build the Draft is filled in on: a page opened before a publish learns that its questions changed.
  const started = { submissionID: result.submission.id, buildID: result.submission.buildId, currentPage: result.submission.currentPage };
  if (answers.length > 0) {
    const update = await updateReportPage({ ...ctx, actor: result.actor }, 0, answers, null);
    if (!update.success) return { ...started, errors: update.errors };
  }
  return { ...started, errors: [] as FieldError[] };
}

/** The session's own unfinished Draft of this form, if it has one: resuming costs nothing. */
async function resumableDraft(ctx: Ctx, formId: string) {
  const actor = ctx.actor.kind === "reporter" ? ctx.actor : null;
  if (!actor?.submissionId) return null;
  const [current] = await ctx.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, actor.submissionId));
  return current && !current.completed && current.formId === formId ? { submission: current, actor } : null;
}

async function openDraft(ctx: Ctx, organisationId: string, form: { id: string; deployedBuildId: string | null }, solution: string | null) {
  const load = await draftLoad(ctx.db, organisationId, form.id);
  refuseDraftsOverCap(load);
  await admit(ctx.db, { action: "report_start", subjectKey: await subjectKey(ctx.db, "form", form.id), solution, minimumDifficulty: draftStartDifficulty(load), now: new Date() });
  const submission = { id: randomUUID(), buildId: form.deployedBuildId, currentPage: 0 };
  const start = { id: submission.id, organisationId, formId: form.id, buildId: form.deployedBuildId, formCap: FORM_DRAFTS_CAP, organisationCap: ORGANISATION_DRAFTS_CAP };
  const { invalidator, reporterSessionCache } = ctx.services;
  const current = ctx.actor.kind === "reporter" ? ctx.actor : null;

  if (current && !current.submissionId) {
    // An unbound session (a form unlocked first) is bound to the Draft; every instance hears of it before the start answers.
    const announced = await ctx.db.transaction(async (tx) => {
      if (!(await startDraft(tx, { ...start, session: null }))) throw new UserError("TOO_MANY_REQUESTS", DRAFTS_FULL);
      return bindSessionToSubmission(tx, current.sessionTokenHash, submission.id, invalidator);
    });
    await announced();
    return { submission, actor: { ...current, submissionId: submission.id } };
  }

  // A session already holding a report (or none at all) gets a fresh session, born holding the new
  // report, with the forms the reporter unlocked still unlocked: all in the start's one statement.
  const unlockedFormIds = [...(current?.unlockedFormIds ?? [])];
  const session = { ...newReporterSession(), unlockedFormIds };
  const markedAt = reporterSessionCache.mark();
  if (!(await startDraft(ctx.db, { ...start, session }))) throw new UserError("TOO_MANY_REQUESTS", DRAFTS_FULL);
  // Nobody else knows this session yet, so this instance may keep it from the start.
  reporterSessionCache.store(session.tokenHash, { organisationId, submissionId: submission.id, unlockedFormIds, lastSeenAt: session.lastSeenAt, expiresAt: session.expiresAt }, markedAt);
  ctx.cookies.set(REPORTER_COOKIE, session.token, Math.floor(REPORTER_ABSOLUTE_TIMEOUT_MS / 1000));
  const actor: ReporterActor = { kind: "reporter", organisationId, submissionId: submission.id, unlockedFormIds, sessionTokenHash: session.tokenHash };
  return { submission, actor };
}

/**
 * Stores one page of the Draft. The server decides what is visible from everything stored so far
 * plus this page, drops answers to hidden widgets, and refuses unknown widgets, unknown options
 * and missing required answers. Usually a single write (draft-access.ts, draft-statements.ts).
 */
export async function updateReportPage(ctx: Ctx, page: number, answers: AnswerInputs, attachmentIds: string[] | null): Promise<{ success: boolean; errors: FieldError[] }> {
  const actor = requireReporter(ctx);
  const keepAttachmentIds = attachmentIds ? attachmentIds.filter((id) => isUuid(id)).map((id) => id.toLowerCase()) : null;
  const outcome = await onDraft(ctx, actor, async (db, snapshot, confirmed) => {
    const refuse = (errors: FieldError[]) => (confirmed ? { success: false, errors, removedKeys: [] as string[] } : STALE);
    if (snapshot.submission.completed) throw new UserError("CONFLICT", ALREADY_SUBMITTED);
    const widgets = await buildWidgets(db, snapshot.submission.buildId!);
    const target = derivePages(widgets)[page];
    if (!Number.isInteger(page) || !target) return refuse([{ field: "page", message: "This page does not exist" }]);

    const onPage = new Set(target.widgets.map((widget) => widget.id));
    const unknown = answers.filter((answer) => !onPage.has(answer.widgetID));
    if (unknown.length > 0) return refuse(unknown.map((answer) => ({ field: answer.widgetID, message: "This question is not on this page of the form" })));

    const merged: Record<string, readonly string[]> = { ...snapshot.answers };
    for (const id of onPage) delete merged[id];
    for (const answer of answers) merged[answer.widgetID] = answer.answer;
    const visible = visibleWidgetIds(widgets, merged as AnswerMap);
    const { kept, problems } = checkPageAnswers(target.widgets, visible, merged as AnswerMap);
    if (problems.length > 0) return refuse(problems.map((problem) => ({ field: problem.widgetId, message: problem.message })));

    const written = await writePage(db, { snapshot, page, pageWidgetIds: [...onPage], kept, keepAttachmentIds, now: new Date() });
    if (!written) return STALE;
    ctx.services.draftSnapshots.store(written.after);
    return { success: true, errors: [] as FieldError[], removedKeys: written.removedStorageKeys };
  });
  // Rows first, bytes once they are committed: an unreachable file is harmless, a row without its file is not.
  for (const key of outcome.removedKeys) await ctx.services.blobs.delete(key).catch((error: unknown) => logError("Could not remove the bytes of a dropped attachment", error));
  return { success: outcome.success, errors: outcome.errors };
}
