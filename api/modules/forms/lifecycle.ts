import { eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reportForms } from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { badInput, UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { hashPassword } from "../../lib/passwords.ts";
import { publishProblems } from "../../shared/form-definition.ts";
import type { Permission } from "../../shared/permissions.ts";
import { mutate, parseOnceFound } from "../access/policy.ts";
import { buildWidgets } from "../reporting/forms.ts";
import { formBuildId } from "./builds.ts";
import { parseSecurePassword } from "./inputs.ts";
import { auditForm, formView, reachableForm, type FormRow, type ReportFormView } from "./views.ts";

/** Publishing, securing, archiving and locking a form: each one locked row, one change, one audit entry. */

export const BUILD_NOT_FOUND = "Build is not found";

type Change = Partial<typeof reportForms.$inferInsert>;

async function changeForm(
  ctx: Ctx,
  rawId: unknown,
  permission: Permission,
  work: (tx: Database, form: FormRow, actor: StaffActor) => Promise<{ set: Change; action: string; metadata?: Record<string, unknown> }>,
): Promise<ReportFormView> {
  const id = await mutate(ctx, permission, async (tx, actor) => {
    const form = await reachableForm(tx, actor, rawId, true);
    const { set, action, metadata } = await work(tx, form, actor);
    await tx.update(reportForms).set({ ...set, updatedAt: new Date() }).where(eq(reportForms.id, form.id));
    await auditForm(tx, actor, form, action, metadata);
    return form.id;
  });
  return formView(ctx, id);
}

/** Reporters get this build from now on; drafts already started keep the build they began. */
export function publishForm(ctx: Ctx, rawId: unknown, rawBuildId: unknown): Promise<ReportFormView> {
  return changeForm(ctx, rawId, "ReportFormPublish", async (tx, form) => {
    const buildId = isUuid(rawBuildId) ? await formBuildId(tx, form.id, rawBuildId.toLowerCase()) : null;
    if (!buildId) throw new UserError("NOT_FOUND", BUILD_NOT_FOUND);
    const problems = publishProblems(await buildWidgets(tx, buildId));
    if (problems.length > 0) throw badInput(problems[0]!, problems.map((message) => ({ field: "buildID", message })));
    return { set: { deployedBuildId: buildId, status: "Active" }, action: "Publish" };
  });
}

export function unpublishForm(ctx: Ctx, rawId: unknown): Promise<ReportFormView> {
  return changeForm(ctx, rawId, "ReportFormUnpublish", async (_tx, form) => {
    if (!form.deployedBuildId) throw new UserError("CONFLICT", "Report Form is not published");
    return { set: { deployedBuildId: null, status: "Draft" }, action: "Unpublish" };
  });
}

/** A non-empty password secures the form (only its hash is kept), null clears it. */
export async function secureForm(ctx: Ctx, rawId: unknown, rawPassword: unknown): Promise<ReportFormView> {
  const password = await parseOnceFound(ctx, "ReportFormUpdate", (db, actor) => reachableForm(db, actor, rawId), () => parseSecurePassword(rawPassword));
  const pinHash = password ? await hashPassword(password) : null;
  return changeForm(ctx, rawId, "ReportFormUpdate", async () => ({ set: { pinHash }, action: "Secure", metadata: { secured: pinHash !== null } }));
}

export function setFormArchived(ctx: Ctx, rawId: unknown, archived: boolean): Promise<ReportFormView> {
  return changeForm(ctx, rawId, archived ? "ReportFormArchive" : "ReportFormUnarchive", async (_tx, form) => {
    if (form.archived === archived) throw new UserError("CONFLICT", archived ? "Report Form is already archived" : "Report Form is not archived");
    return { set: { archived, archivedAt: archived ? new Date() : null }, action: archived ? "Archive" : "Unarchive", metadata: { archived } };
  });
}

/** A locked form refuses saves until someone unlocks it, so a finished form is not changed by accident. */
export function toggleFormLock(ctx: Ctx, rawId: unknown): Promise<ReportFormView> {
  return changeForm(ctx, rawId, "ReportFormUpdate", async (_tx, form) => ({ set: { locked: !form.locked }, action: form.locked ? "Unlock" : "Lock" }));
}
