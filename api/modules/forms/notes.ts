import { and, count, desc, eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reportFormNotes } from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { UserError, forbidden } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import type { Permission } from "../../shared/permissions.ts";
import { canReachOrganisation, mutate, parseOnceFound, requirePermission } from "../access/policy.ts";
import { CANNOT_DELETE, CANNOT_EDIT, cleanNote, NOTE_NOT_FOUND, noteAuthors } from "../reports/notes.ts";
import { pageLimit, pageOffset } from "../users/service.ts";
import { auditForm, reachableForm } from "./views.ts";

/** A form's internal notes: any of its organisation's form staff write them; only their author edits or archives one. */

type NoteRow = typeof reportFormNotes.$inferSelect;

export interface FormNoteView {
  id: string;
  note: string;
  createdAt: Date;
  updatedAt: Date;
  archived: boolean;
  author: { id: string; firstName: string; lastName: string; role: string } | null;
  canEdit: boolean;
}

async function noteViews(db: Database, viewerId: string, rows: readonly NoteRow[]): Promise<FormNoteView[]> {
  const byId = await noteAuthors(db, rows);
  return rows.map((row) => ({
    id: row.id,
    note: row.note,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    archived: row.archived,
    author: row.authorUserId ? (byId.get(row.authorUserId) ?? null) : null,
    canEdit: row.authorUserId === viewerId && !row.archived,
  }));
}

/** The form's live notes, newest first. */
export async function listFormNotes(ctx: Ctx, rawFormId: unknown, limit: number | null | undefined, offset: number | null | undefined) {
  const actor = requirePermission(ctx, "ReportFormNoteList");
  const form = await reachableForm(ctx.db, actor, rawFormId);
  const where = and(eq(reportFormNotes.formId, form.id), eq(reportFormNotes.archived, false));
  const [total] = await ctx.db.select({ n: count() }).from(reportFormNotes).where(where);
  const rows = await ctx.db
    .select()
    .from(reportFormNotes)
    .where(where)
    .orderBy(desc(reportFormNotes.createdAt), desc(reportFormNotes.id))
    .limit(pageLimit(limit))
    .offset(pageOffset(offset));
  return { total: total?.n ?? 0, list: await noteViews(ctx.db, actor.userId, rows) };
}

export async function createFormNote(ctx: Ctx, rawFormId: unknown, rawNote: string): Promise<FormNoteView> {
  const note = await parseOnceFound(ctx, "ReportFormNoteCreate", (db, actor) => reachableForm(db, actor, rawFormId), () => cleanNote(rawNote));
  const { row, actor } = await mutate(ctx, "ReportFormNoteCreate", async (tx, actor) => {
    const form = await reachableForm(tx, actor, rawFormId, true);
    const [row] = await tx.insert(reportFormNotes).values({ formId: form.id, organisationId: form.organisationId, authorUserId: actor.userId, note }).returning();
    await auditForm(tx, actor, form, "NoteCreate", { noteId: row!.id });
    return { row: row!, actor };
  });
  return (await noteViews(ctx.db, actor.userId, [row]))[0]!;
}

/** A live note of a form the actor reaches, else "not found". */
async function reachableNote(db: Database, actor: StaffActor, rawId: unknown): Promise<NoteRow> {
  const [found] = isUuid(rawId) ? await db.select().from(reportFormNotes).where(eq(reportFormNotes.id, rawId.toLowerCase())) : [];
  if (!found || found.archived || !canReachOrganisation(actor, found.organisationId)) throw new UserError("NOT_FOUND", NOTE_NOT_FOUND);
  return found;
}

/** The note's form locked first (as every note change does), then the note; only its author may change it. */
async function changeOwnNote(ctx: Ctx, rawId: unknown, permission: Permission, action: string, refusal: string, set: (row: NoteRow) => Partial<NoteRow>): Promise<FormNoteView> {
  const { row, actor } = await mutate(ctx, permission, async (tx, actor: StaffActor) => {
    const found = await reachableNote(tx, actor, rawId);
    const form = await reachableForm(tx, actor, found.formId, true);
    const [note] = await tx.select().from(reportFormNotes).where(eq(reportFormNotes.id, found.id)).for("update");
    if (!note || note.archived) throw new UserError("NOT_FOUND", NOTE_NOT_FOUND);
    if (note.authorUserId !== actor.userId) throw forbidden(refusal);
    const [changed] = await tx.update(reportFormNotes).set(set(note)).where(eq(reportFormNotes.id, note.id)).returning();
    await auditForm(tx, actor, form, action, { noteId: note.id });
    return { row: changed!, actor };
  });
  return (await noteViews(ctx.db, actor.userId, [row]))[0]!;
}

export async function updateFormNote(ctx: Ctx, rawId: unknown, rawNote: string): Promise<FormNoteView> {
  const note = await parseOnceFound(ctx, "ReportFormNoteUpdate", (db, actor) => reachableNote(db, actor, rawId), () => cleanNote(rawNote));
  return changeOwnNote(ctx, rawId, "ReportFormNoteUpdate", "NoteUpdate", CANNOT_EDIT, () => ({ note, updatedAt: new Date() }));
}

export function archiveFormNote(ctx: Ctx, rawId: unknown): Promise<FormNoteView> {
  return changeOwnNote(ctx, rawId, "ReportFormNoteArchive", "NoteArchive", CANNOT_DELETE, () => ({ archived: true, archivedAt: new Date() }));
}
