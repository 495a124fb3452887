import type { Ctx } from "../../context.ts";
import { admit, BUSY_DIFFICULTY, challenge, loadDifficulty, type Attempt } from "../abuse/guard.ts";
import { subjectKey } from "../abuse/secret.ts";
import { ORGANISATION_DRAFT_BYTES_FREE } from "../reporting/draft-limits.ts";
import { CleaningBusyError, openCleaningLaneFull, type CleaningLane } from "./cleaning-pool.ts";

/**
 * An anonymous upload's place in the abuse budget of drafts (decision 016, "Drafts and enquiries";
 * decision 060). Free while the organisation's drafts hold little and the cleaning pool has room;
 * past that, proof of work: as much as starting a draft costs at the same bytes, and at least the
 * busy level while the pool's open lane is full. A paid upload waits in the trusted lane.
 */

export interface UploadAdmission {
  lane: CleaningLane;
  attempt: Attempt;
}

export async function admitReporterUpload(ctx: Ctx, submissionId: string, draftBytes: number, solution: string | null): Promise<UploadAdmission> {
  const minimumDifficulty = Math.max(loadDifficulty(draftBytes, ORGANISATION_DRAFT_BYTES_FREE), openCleaningLaneFull() ? BUSY_DIFFICULTY : 0);
  const attempt: Attempt = { action: "report_upload", subjectKey: await subjectKey(ctx.db, "draft", submissionId), solution, minimumDifficulty, now: new Date() };
  const { lane } = await admit(ctx.db, attempt);
  return { lane, attempt };
}

/** Runs the cleaning; an unpaid upload that finds the open lane full after all is answered with a challenge, as a busy sign-in is. */
export async function cleanAdmitted<T>(ctx: Ctx, admission: UploadAdmission, clean: (lane: CleaningLane) => Promise<T>): Promise<T> {
  try {
    return await clean(admission.lane);
  } catch (error) {
    if (!(error instanceof CleaningBusyError) || admission.lane === "trusted") throw error;
    throw await challenge(ctx.db, admission.attempt, Math.max(admission.attempt.minimumDifficulty ?? 0, BUSY_DIFFICULTY));
  }
}
