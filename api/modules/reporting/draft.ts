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
import { DRAFTS_FULL, draftStartDifficulty, FORM_DRAFTS_CAP, ORGANISATION_DRAFTS_CAP, refuseDraftsOverCap, startAllowance } from "./draft-limits.ts";
import { startDraft, writePage, type DraftRow, type DraftStartOutcome } from "./draft-statements.ts";
import { onDraft, STALE } from "./draft-access.ts";
import { challenge, verifiedSolution } from "../abuse/guard.ts";
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
  const result = (await resumableDraft(ctx, organisation.id, reportFormID)) ?? (await openDraft(ctx, organisation.id, reportFormID, solution));
  // The build the Draft is filled in on: a page opened before a publish learns that its questions changed.
  const started = { submissionID: result.submission.id, buildID: result.submission.buildId, currentPage: result.submission.currentPage };
  if (answers.length > 0) {
    const update = await updateReportPage({ ...ctx, actor: result.actor }, 0, answers, null);
    if (!update.success) return { ...started, errors: update.errors };
  }
  return { ...started, errors: [] as FieldError[] };
}

const formLocked = () => new UserError("FORBIDDEN", "Form password is incorrect");

/** The session's own unfinished Draft of this form, if it has one: resuming costs nothing. */
async function resumableDraft(ctx: Ctx, organisationId: string, formId: string) {
  const actor = ctx.actor.kind === "reporter" ? ctx.actor : null;
  if (!actor?.submissionId) return null;
  const form = await requirePublishedForm(ctx.db, organisationId, formId);
  if (!isUnlocked(form, actor)) throw formLocked();
  const [current] = await ctx.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, actor.submissionId));
  return current && !current.completed && current.formId === formId ? { submission: current, actor } : null;
}

/**
 * A new Draft, in one statement in the common case (decision 028): the statement checks the form,
 * counts the load under the organisation's draft lock and spends the work paid for it. A start it
 * refuses for the load is answered like any guarded attempt: over a cap, full; else a challenge
 * priced for the load it found.
 */
async function openDraft(ctx: Ctx, organisationId: string, formId: string, solution: string | null) {
  // The organisation's data key exists before the Draft does: its first page saves, often several at
  // once (two tabs), then all seal with one key, instead of racing to make the organisation's first.
  await ctx.services.keyRing.sealer(ctx.db, organisationId);
  const attempt = { action: "report_start" as const, subjectKey: await subjectKey(ctx.db, "form", formId), solution, now: new Date() };
  const paid = await verifiedSolution(ctx.db, attempt);
  const current = ctx.actor.kind === "reporter" ? ctx.actor : null;
  const unlockedFormIds = [...(current?.unlockedFormIds ?? [])];
  const start = {
    id: randomUUID(),
    organisationId,
    formId,
    unlockedFormIds,
    caps: { organisationDrafts: ORGANISATION_DRAFTS_CAP, formDrafts: FORM_DRAFTS_CAP },
    allowance: startAllowance(paid?.difficulty ?? 0),
    payment: paid ? { signature: paid.signature, expiresAt: paid.expiresAt } : null,
  };
  const { invalidator, reporterSessionCache, draftSnapshots } = ctx.services;
  const started = async (outcome: DraftStartOutcome): Promise<DraftRow | null> => {
    if (outcome.kind === "formNotFound") throw new UserError("NOT_FOUND", REPORT_FORM_NOT_FOUND);
    if (outcome.kind === "formLocked") throw formLocked();
    if (outcome.kind === "recount") return null;
    if (outcome.kind === "refused") {
      refuseDraftsOverCap(outcome.load);
      throw await challenge(ctx.db, attempt, Math.max(1, draftStartDifficulty(outcome.load)));
    }
    draftSnapshots.store(outcome.snapshot);
    return outcome.snapshot.submission;
  };

  for (let round = 0; round < START_ROUNDS; round += 1) {
    if (current && !current.submissionId) {
      // An unbound session (a form unlocked first) is bound to the Draft; every instance hears of it before the start answers.
      const bound = await ctx.db.transaction(async (tx) => {
        const submission = await started(await startDraft(tx, { ...start, session: null }));
        return submission && { submission, announce: await bindSessionToSubmission(tx, current.sessionTokenHash, start.id, invalidator) };
      });
      if (!bound) continue;
      await bound.announce();
      return { submission: bound.submission, actor: { ...current, submissionId: start.id } };
    }

    // A session already holding a report (or none at all) gets a fresh session, born holding the new
    // report, with the forms the reporter unlocked still unlocked: all in the start's one statement.
    const session = { ...newReporterSession(), unlockedFormIds };
    const markedAt = reporterSessionCache.mark();
    const submission = await started(await startDraft(ctx.db, { ...start, session }));
    if (!submission) continue;
    // Nobody else knows this session yet, so this instance may keep it from the start.
    reporterSessionCache.store(session.tokenHash, { organisationId, submissionId: start.id, unlockedFormIds, lastSeenAt: session.lastSeenAt, expiresAt: session.expiresAt }, markedAt);
    ctx.cookies.set(REPORTER_COOKIE, session.token, Math.floor(REPORTER_ABSOLUTE_TIMEOUT_MS / 1000));
    const actor: ReporterActor = { kind: "reporter", organisationId, submissionId: start.id, unlockedFormIds, sessionTokenHash: session.tokenHash };
    return { submission, actor };
  }
  // Only a flood that keeps crossing the margin between two looks gets here: it is near the cap.
  throw new UserError("TOO_MANY_REQUESTS", DRAFTS_FULL);
}

/** A recount takes the exclusive path, so a second round almost always decides. */
const START_ROUNDS = 3;

/**
 * Stores one page of the Draft. The server decides what is visible from everything stored so far
 * plus this page, drops answers to hidden widgets, and refuses unknown widgets, unknown options
 * and missing required answers. Usually a single write (draft-access.ts, draft-statements.ts).
 */
export async function updateReportPage(ctx: Ctx, page: number, answers: AnswerInputs, attachmentIds: string[] | null): Promise<{ success: boolean; errors: FieldError[] }> {
  const actor = requireReporter(ctx);
  const keepAttachmentIds = attachmentIds ? attachmentIds.filter((id) => isUuid(id)).map((id) => id.toLowerCase()) : null;
  const outcome = await onDraft(ctx, actor, async (db, snapshot, confirmed, sealer) => {
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

    const written = await writePage(db, { snapshot, page, pageWidgetIds: [...onPage], kept, sealer, keepAttachmentIds, now: new Date() });
    if (!written) return STALE;
    ctx.services.draftSnapshots.store(written.after);
    return { success: true, errors: [] as FieldError[], removedKeys: written.removedStorageKeys };
  });
  // Rows first, bytes once they are committed: an unreachable file is harmless, a row without its file is not.
  for (const key of outcome.removedKeys) await ctx.services.blobs.delete(key).catch((error: unknown) => logError("Could not remove the bytes of a dropped attachment", error));
  return { success: outcome.success, errors: outcome.errors };
}
