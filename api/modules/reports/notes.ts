import { and, count, desc, eq, inArray } from "drizzle-orm";
import * as v from "valibot";
import type { Database } from "../../../db/client.ts";
import { reportSubmissionNotes, roles, users } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError, forbidden } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { TEXT_LIMITS } from "../../shared/limits.ts";
import { parseWith } from "../../lib/validation.ts";
import type { RoleName, SubmissionStatus } from "../../shared/enums.ts";
import type { Permission } from "../../shared/permissions.ts";
import { mutate, requirePermission } from "../access/policy.ts";
import { pageLimit, pageOffset } from "../users/service.ts";
import { publishReportUpdated, recordReportChange } from "./events.ts";
import { reportFor, type ReportAccess } from "./policy.ts";

/** A report's staff notes: written by its team, edited and archived by their authors only. */

export const NOTE_NOT_FOUND = "Note is not found";
export const TEAM_ONLY_NOTES = "Only members of the report team can add notes.";
export const CANNOT_EDIT = "This item cannot be edited.";
export const CANNOT_DELETE = "This item cannot be deleted.";
export const MAX_NOTE_LENGTH = TEXT_LIMITS.note.max;

type NoteRow = typeof reportSubmissionNotes.$inferSelect;

export interface ReportNoteView {
  id: string;
  note: string;
  newStatus: SubmissionStatus | null;
  createdAt: Date;
  updatedAt: Date;
  archived: boolean;
  /** The viewer's own note that no status change wrote. */
  editable: boolean;
  /** The viewer's own note. */
  deletable: boolean;
  author: { id: string; firstName: string; lastName: string; role: RoleName } | null;
}

const NoteInput = v.object({
  note: v.pipe(v.string(), v.trim(), v.nonEmpty("Required"), v.maxLength(MAX_NOTE_LENGTH, TEXT_LIMITS.note.tooLong)),
});

/** The note as stored: trimmed, non-empty, at most 10,000 characters. */
export const cleanNote = (note: string | null | undefined): string => parseWith(NoteInput, { note: note ?? "" }).note;

/** 'NotSubstantiated' → 'Report Marked as Not Substantiated', as the console shows statuses. */
export const statusNoteText = (status: SubmissionStatus) => `Report Marked as ${status.replace(/([a-z])([A-Z])/g, "$1 $2")}`;

/** Writes a note (status notes too) sealed, in the caller's transaction; the row returned holds it as stored. */
export async function insertNote(ctx: Ctx, tx: Database, access: ReportAccess, values: { note: string; newStatus?: SubmissionStatus }): Promise<NoteRow> {
  const organisationId = access.submission.organisationId;
  const sealer = await ctx.services.keyRing.sealer(tx, organisationId);
  const [row] = await tx
    .insert(reportSubmissionNotes)
    .values({ submissionId: access.submission.id, organisationId, authorUserId: access.actor.userId, ...values, note: sealer.sealText("note", values.note) })
    .returning();
  return row!;
}

/** The authors of these notes (report or form notes alike), by id, as a note shows them. */
export async function noteAuthors(db: Database, rows: readonly { authorUserId: string | null }[]) {
  const authorIds = [...new Set(rows.map((row) => row.authorUserId).filter((id): id is string => id !== null))];
  const people = authorIds.length
    ? await db
        .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, role: roles.name })
        .from(users)
        .innerJoin(roles, eq(roles.id, users.roleId))
        .where(inArray(users.id, authorIds))
    : [];
  return new Map(people.map((person) => [person.id, person]));
}

/** Notes as staff see them: the text opened (it is stored sealed), the author named. */
async function viewsOf(ctx: Ctx, viewerId: string, rows: NoteRow[]): Promise<ReportNoteView[]> {
  const byId = await noteAuthors(ctx.db, rows);
  const sealers = await ctx.services.keyRing.sealers(ctx.db, rows.map((row) => row.organisationId));
  return rows.map((row) => {
    const own = row.authorUserId === viewerId;
    return {
      id: row.id,
      note: sealers.get(row.organisationId)!.openText("note", row.note),
      newStatus: row.newStatus,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      archived: row.archived,
      editable: own && row.newStatus === null,
      deletable: own,
      author: row.authorUserId ? (byId.get(row.authorUserId) ?? null) : null,
    };
  });
}

/** A report's live notes, newest first. */
export async function listNotes(ctx: Ctx, reportSubmissionID: unknown, limit: number | null | undefined, offset: number | null | undefined) {
  const access = await reportFor(ctx, ctx.db, reportSubmissionID, "ReportSubmissionNoteList");
  // Invalid pagination falls back to the default page (spec §5), as every list does.
  const take = pageLimit(limit);
  const skip = pageOffset(offset);
  const where = and(eq(reportSubmissionNotes.submissionId, access.submission.id), eq(reportSubmissionNotes.archived, false));
  const [total] = await ctx.db.select({ n: count() }).from(reportSubmissionNotes).where(where);
  const rows = await ctx.db.select().from(reportSubmissionNotes).where(where).orderBy(desc(reportSubmissionNotes.createdAt), desc(reportSubmissionNotes.id)).limit(take).offset(skip);
  return { total: total?.n ?? 0, list: await viewsOf(ctx, access.actor.userId, rows) };
}

/** The transaction every note change takes: the report locked, the change, the report's updatedAt and audit entry. */
async function changeNotes(
  ctx: Ctx,
  reportSubmissionID: unknown,
  permission: Permission,
  work: (tx: Database, access: ReportAccess) => Promise<{ row: NoteRow; action: string }>,
): Promise<ReportNoteView> {
  const { access, row } = await mutate(ctx, permission, async (tx) => {
    const access = await reportFor(ctx, tx, reportSubmissionID, permission, true);
    const { row, action } = await work(tx, access);
    await recordReportChange(tx, access, { action, metadata: { noteId: row.id } });
    return { access, row };
  });
  await publishReportUpdated(ctx, access.submission.organisationId, access.submission.id);
  return (await viewsOf(ctx, access.actor.userId, [row]))[0]!;
}

export function createNote(ctx: Ctx, reportSubmissionID: unknown, note: string): Promise<ReportNoteView> {
  return changeNotes(ctx, reportSubmissionID, "ReportSubmissionNoteCreate", async (tx, access) => {
    if (!access.assigned) throw forbidden(TEAM_ONLY_NOTES);
    return { row: await insertNote(ctx, tx, access, { note: cleanNote(note) }), action: "NoteCreate" };
  });
}

/**
 * Finds the note's report without locking the note (the report lock comes first on every path,
 * hard delete included, so two changes can never wait on each other), then locks the note.
 */
async function changeOwnNote(
  ctx: Ctx,
  id: unknown,
  permission: Permission,
  action: string,
  refusal: string,
  change: (tx: Database, row: NoteRow) => Promise<NoteRow>,
): Promise<ReportNoteView> {
  requirePermission(ctx, permission);
  if (!isUuid(id)) throw new UserError("NOT_FOUND", NOTE_NOT_FOUND);
  const [found] = await ctx.db.select({ submissionId: reportSubmissionNotes.submissionId }).from(reportSubmissionNotes).where(eq(reportSubmissionNotes.id, id));
  if (!found) throw new UserError("NOT_FOUND", NOTE_NOT_FOUND);
  try {
    return await changeNotes(ctx, found.submissionId, permission, async (tx, access) => {
      const [row] = await tx.select().from(reportSubmissionNotes).where(eq(reportSubmissionNotes.id, id)).for("update");
      if (!row || row.archived) throw new UserError("NOT_FOUND", NOTE_NOT_FOUND);
      if (row.authorUserId !== access.actor.userId) throw forbidden(refusal);
      return { row: await change(tx, row), action };
    });
  } catch (error) {
    // A note on a report the caller cannot see answers exactly like a note that does not exist.
    if (error instanceof UserError && error.code === "NOT_FOUND") throw new UserError("NOT_FOUND", NOTE_NOT_FOUND);
    throw error;
  }
}

export async function updateNote(ctx: Ctx, id: unknown, note: string): Promise<ReportNoteView> {
  return changeOwnNote(ctx, id, "ReportSubmissionNoteUpdate", "NoteUpdate", CANNOT_EDIT, async (tx, row) => {
    // Status notes record what happened; they are history, not opinion.
    if (row.newStatus !== null) throw forbidden(CANNOT_EDIT);
    // Sealed afresh: a new nonce, and the organisation's key as it is now.
    const sealer = await ctx.services.keyRing.sealer(tx, row.organisationId);
    const [updated] = await tx.update(reportSubmissionNotes).set({ note: sealer.sealText("note", cleanNote(note)), updatedAt: new Date() }).where(eq(reportSubmissionNotes.id, row.id)).returning();
    return updated!;
  });
}

export async function archiveNote(ctx: Ctx, id: unknown): Promise<ReportNoteView> {
  return changeOwnNote(ctx, id, "ReportSubmissionNoteArchive", "NoteArchive", CANNOT_DELETE, async (tx, row) => {
    const [archived] = await tx.update(reportSubmissionNotes).set({ archived: true, archivedAt: new Date() }).where(eq(reportSubmissionNotes.id, row.id)).returning();
    return archived!;
  });
}
