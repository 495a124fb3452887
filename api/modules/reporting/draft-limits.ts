import { and, count, eq, gt, sql, sum } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reportForms, reportSubmissionAttachments, reportSubmissions } from "../../../db/schema/index.ts";
import { UserError } from "../../lib/errors.ts";
import { loadDifficulty } from "../abuse/guard.ts";

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

/** Open drafts of the form and the organisation, and the bytes attached to them: one statement. */
export async function draftLoad(db: Database, organisationId: string, formId: string): Promise<DraftLoad> {
  const bytes = db
    .select({ bytes: sql`coalesce(sum(${reportSubmissionAttachments.fileSizeBytes}), 0)` })
    .from(reportSubmissionAttachments)
    .innerJoin(reportSubmissions, eq(reportSubmissions.id, reportSubmissionAttachments.submissionId))
    .where(and(eq(reportSubmissions.organisationId, organisationId), eq(reportSubmissions.status, "Draft")));
  const [load] = await db
    .select({ ...draftCountColumns(formId), organisationDraftBytes: sql<number>`(${bytes})`.mapWith(Number) })
    .from(reportSubmissions)
    .where(and(eq(reportSubmissions.organisationId, organisationId), eq(reportSubmissions.status, "Draft")));
  return { formDrafts: load?.formDrafts ?? 0, organisationDrafts: load?.organisationDrafts ?? 0, organisationDraftBytes: load?.organisationDraftBytes ?? 0 };
}

const draftCountColumns = (formId: string) => ({
  organisationDrafts: count(),
  formDrafts: sql<number>`count(*) filter (where ${reportSubmissions.formId} = ${formId})`.mapWith(Number),
});

async function organisationDraftBytes(db: Database, organisationId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sum(reportSubmissionAttachments.fileSizeBytes).mapWith(Number) })
    .from(reportSubmissionAttachments)
    .innerJoin(reportSubmissions, eq(reportSubmissions.id, reportSubmissionAttachments.submissionId))
    .where(and(eq(reportSubmissions.organisationId, organisationId), eq(reportSubmissions.status, "Draft")));
  return row?.bytes ?? 0;
}

/** Bytes the organisation's drafts may still take before uploads are refused. */
export async function draftBytesRoom(db: Database, organisationId: string): Promise<number> {
  return ORGANISATION_DRAFT_BYTES_CAP - (await organisationDraftBytes(db, organisationId));
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
