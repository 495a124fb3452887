import type { Database } from "../../../db/client.ts";
import type { Ctx, ReporterActor } from "../../context.ts";
import type { Sealer } from "../../lib/key-ring.ts";
import { UserError } from "../../lib/errors.ts";
import { CREDENTIALS_PROBLEM } from "../../shared/messages.ts";
import { readDraft, type DraftSnapshot } from "./draft-statements.ts";

/** What a step answers when its write found the Draft moved on since it was read. */
export const STALE = Symbol("stale draft");

/**
 * One step on a Draft. `confirmed` is false while `snapshot` is this instance's copy: a refusal
 * decided on it (missing answers, a completed report) must answer STALE instead, so it is decided
 * again on the Draft as it is; a copy may lack what another instance saved. `sealer` is the
 * organisation's, for what the step writes.
 */
export type DraftStep<T> = (db: Database, snapshot: DraftSnapshot, confirmed: boolean, sealer: Sealer) => Promise<T | typeof STALE>;

/**
 * Runs one step of a reporter's Draft (a page save, the completion) on the Draft as it is
 * (decision 028). First without a lock, on this instance's copy after its own last write or on one
 * read: the common case, one write. If the write finds the Draft moved on (another tab, another
 * instance), the step runs once more on the Draft read under its row lock, where it cannot be
 * outrun, so a step never fails for being busy however many saves race it. A refusal decided on a
 * copy is decided again the same way.
 */
export async function onDraft<T>(ctx: Ctx, actor: ReporterActor, step: DraftStep<T>): Promise<T> {
  const submissionId = actor.submissionId;
  if (!submissionId) throw new UserError("UNAUTHENTICATED", CREDENTIALS_PROBLEM);
  const snapshots = ctx.services.draftSnapshots;
  // Once, before any transaction: on the embedded database a transaction holds the only connection.
  const sealer = await ctx.services.keyRing.sealer(ctx.db, actor.organisationId);
  const kept = snapshots.get(actor.organisationId, submissionId);
  const snapshot = kept ?? (await readDraft(ctx.db, sealer, actor.organisationId, submissionId));
  if (!snapshot) throw new UserError("UNAUTHENTICATED", CREDENTIALS_PROBLEM);
  const first = await step(ctx.db, snapshot, kept === undefined, sealer);
  if (first !== STALE) return first;

  snapshots.forget(submissionId);
  const second = await ctx.db.transaction(async (tx) => {
    const locked = await readDraft(tx, sealer, actor.organisationId, submissionId, true);
    if (!locked) throw new UserError("UNAUTHENTICATED", CREDENTIALS_PROBLEM);
    return step(tx, locked, true, sealer);
  });
  // Only a change made under the row's own lock could do this, and none is.
  if (second === STALE) throw new Error("A Draft changed while its row was locked");
  return second;
}
