import { eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reportFormBuilds, reportFormWidgets, users } from "../../../db/schema/index.ts";
import { UserError } from "../../lib/errors.ts";
import type { FormWidget } from "../../shared/form-definition.ts";
import { buildWidgets } from "../reporting/forms.ts";

/**
 * Builds: every save of a form's or a template's widgets is a new immutable revision, so a
 * reporter's draft keeps answering the build it started on while the form moves on (decision 020).
 */

export interface BuildView {
  id: string;
  revision: number;
  createdAt: Date;
  /** null: written by the system (seeds, imports), shown as 'System'. */
  author: { id: string; email: string } | null;
  widgets: FormWidget[];
}

export type BuildOwner = { formId: string } | { templateId: string };

export async function loadBuild(db: Database, buildId: string | null): Promise<BuildView | null> {
  if (!buildId) return null;
  const [row] = await db
    .select({ id: reportFormBuilds.id, revision: reportFormBuilds.revision, createdAt: reportFormBuilds.createdAt, authorId: users.id, authorEmail: users.email })
    .from(reportFormBuilds)
    .leftJoin(users, eq(users.id, reportFormBuilds.authorUserId))
    .where(eq(reportFormBuilds.id, buildId));
  if (!row) return null;
  const author = row.authorId && row.authorEmail ? { id: row.authorId, email: row.authorEmail } : null;
  return { id: row.id, revision: row.revision, createdAt: row.createdAt, author, widgets: await buildWidgets(db, row.id) };
}

/** The revision and author of a build, without its widgets. */
async function buildHead(tx: Database, buildId: string | null): Promise<{ revision: number; email: string | null } | null> {
  if (!buildId) return null;
  const [row] = await tx
    .select({ revision: reportFormBuilds.revision, email: users.email })
    .from(reportFormBuilds)
    .leftJoin(users, eq(users.id, reportFormBuilds.authorUserId))
    .where(eq(reportFormBuilds.id, buildId));
  return row ?? null;
}

export const conflictMessage = (email: string, what: "form" | "template") =>
  `${email} saved this ${what} while you were editing. Reload it to see their changes; yours are not saved.`;

/**
 * The optimistic check of a save. Runs inside the save's transaction after the owner row is
 * locked, so of two saves from the same revision exactly one finds its base still current.
 * Without a baseRevision the save is unconditional (scripts, first saves).
 */
export async function requireCurrentRevision(tx: Database, currentBuildId: string | null, baseRevision: number | null, what: "form" | "template"): Promise<number> {
  const head = await buildHead(tx, currentBuildId);
  const revision = head?.revision ?? 0;
  if (baseRevision !== null && baseRevision !== revision) {
    throw new UserError("CONFLICT", conflictMessage(head?.email ?? "Someone", what));
  }
  return revision;
}

/** Writes a new build with its widgets in order; returns its id. */
export async function insertBuild(tx: Database, owner: BuildOwner, revision: number, authorUserId: string, widgets: readonly FormWidget[]): Promise<string> {
  const [build] = await tx
    .insert(reportFormBuilds)
    .values({ ...owner, revision, authorUserId })
    .returning({ id: reportFormBuilds.id });
  const buildId = build!.id;
  if (widgets.length > 0) {
    await tx.insert(reportFormWidgets).values(
      widgets.map((widget, position) => ({
        buildId,
        position,
        id: widget.id,
        type: widget.type,
        title: widget.title,
        required: widget.required,
        tooltip: widget.tooltip,
        caption: widget.caption,
        answers: widget.answers,
        pageName: widget.pageName,
        condition: widget.condition,
      })),
    );
  }
  return buildId;
}

/** The build of this form with this id, if there is one. */
export async function formBuildId(tx: Database, formId: string, buildId: string): Promise<string | null> {
  const [row] = await tx.select({ id: reportFormBuilds.id, formId: reportFormBuilds.formId }).from(reportFormBuilds).where(eq(reportFormBuilds.id, buildId));
  return row && row.formId === formId ? row.id : null;
}
