import { and, count, eq, gt, sum } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reportForms, reportSubmissionAttachments, reportSubmissions } from "../../../db/schema/index.ts";
import { UserError } from "../../lib/errors.ts";
import { loadAllowedBelow, loadDifficulty } from "../abuse/guard.ts";

/**
 * Bounds on what anonymous visitors can make the server store before a report is finished
 * (docs/decisions/016-proof-of-work.md, "Drafts and enquiries"). Below the free level nothing is
 * asked; above it, starting a draft costs proof of work that grows with the count; at the cap it
 * is refused. Abandoned drafts are deleted after a day (draft-cleaner.ts), so the counts fall again.
 */
export const FORM_DRAFTS_FREE = 50;
export const FORM_DRAFTS_CAP = 500;
export const ORGANISATION_DRAFTS_FREE = 200;
export const ORGANISATION_DRAFTS_CAP = 2_000;
/** Bytes attached to the organisation's unfinished drafts. */
export const ORGANISATION_DRAFT_BYTES_FREE = 1_000_000_000;
export const ORGANISATION_DRAFT_BYTES_CAP = 5_000_000_000;
/** Enquiries per organisation in the last hour. */
export const ENQUIRIES_FREE_PER_HOUR = 10;
export const ENQUIRIES_CAP_PER_HOUR = 200;

export const DRAFTS_FULL = "Too many reports are being written here right now. Unfinished reports are removed after a day; please try again later.";
export const DRAFT_STORAGE_FULL = "Too many files are waiting in unfinished reports here right now. You can send your report without files, or try again later.";
export const ENQUIRIES_FULL = "Too many enquiries right now. Please try again later.";

export interface DraftLoad {
  formDrafts: number;
  organisationDrafts: number;
  organisationDraftBytes: number;
}

/**
 * What a start may find and still go ahead (exclusive bounds), given the difficulty of the work it
 * paid: the caps always; beyond the free levels only as far as that work pays for (decision 028).
 */
export function startAllowance(paidDifficulty: number): { paid: DraftLoad; free: DraftLoad } {
  return {
    free: { formDrafts: FORM_DRAFTS_FREE, organisationDrafts: ORGANISATION_DRAFTS_FREE, organisationDraftBytes: ORGANISATION_DRAFT_BYTES_FREE },
    paid: {
      formDrafts: Math.min(FORM_DRAFTS_CAP, loadAllowedBelow(paidDifficulty, FORM_DRAFTS_FREE)),
      organisationDrafts: Math.min(ORGANISATION_DRAFTS_CAP, loadAllowedBelow(paidDifficulty, ORGANISATION_DRAFTS_FREE)),
      organisationDraftBytes: Math.min(Number.MAX_SAFE_INTEGER, loadAllowedBelow(paidDifficulty, ORGANISATION_DRAFT_BYTES_FREE)),
    },
  };
}

export async function organisationDraftBytes(db: Database, organisationId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sum(reportSubmissionAttachments.fileSizeBytes).mapWith(Number) })
    .from(reportSubmissionAttachments)
    .innerJoin(reportSubmissions, eq(reportSubmissions.id, reportSubmissionAttachments.submissionId))
    .where(and(eq(reportSubmissions.organisationId, organisationId), eq(reportSubmissions.status, "Draft")));
  return row?.bytes ?? 0;
}


export function draftStartDifficulty(load: DraftLoad): number {
  return Math.max(
    loadDifficulty(load.formDrafts, FORM_DRAFTS_FREE),
    loadDifficulty(load.organisationDrafts, ORGANISATION_DRAFTS_FREE),
    loadDifficulty(load.organisationDraftBytes, ORGANISATION_DRAFT_BYTES_FREE),
  );
}

export function refuseDraftsOverCap(load: Pick<DraftLoad, "formDrafts" | "organisationDrafts">): void {
  if (load.formDrafts >= FORM_DRAFTS_CAP || load.organisationDrafts >= ORGANISATION_DRAFTS_CAP) throw new UserError("TOO_MANY_REQUESTS", DRAFTS_FULL);
}

export async function recentEnquiries(db: Database, organisationId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ enquiries: count() })
    .from(reportSubmissions)
    .innerJoin(reportForms, eq(reportForms.id, reportSubmissions.formId))
    .where(and(eq(reportSubmissions.organisationId, organisationId), eq(reportForms.type, "Enquiry"), gt(reportSubmissions.createdAt, new Date(now.getTime() - 60 * 60 * 1000))));
  return row?.enquiries ?? 0;
}
