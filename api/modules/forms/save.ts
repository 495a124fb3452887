import { eq } from "drizzle-orm";
import { organisations, reportForms } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { badInput, UserError } from "../../lib/errors.ts";
import { requireUuid } from "../../lib/ids.ts";
import { hashPassword } from "../../lib/passwords.ts";
import { mutate, organisationScope, parseOnceFound } from "../access/policy.ts";
import { namedOrganisation, ORGANISATION_NOT_FOUND, organisationIdIn } from "../organisations/service.ts";
import { insertBuild, requireCurrentRevision } from "./builds.ts";
import { parseFormInput, pinHashAfter, REQUIRED, type FormSave } from "./inputs.ts";
import { auditForm, formView, reachableForm, type ReportFormView } from "./views.ts";

/** Creating and saving forms: every save is a new build, checked against the revision the editor loaded. */

/** Hashing is slow on purpose, so it happens before the transaction takes any lock. */
const hashOf = (save: FormSave) => (save.password ? hashPassword(save.password) : Promise.resolve(null));

/** Names of what a save carried, for the audit log. */
const savedFields = (save: FormSave) => ["name", "widgets", ...Object.keys(save.settings), ...(save.secure !== null || save.password ? ["secure"] : [])];

export async function createForm(ctx: Ctx, raw: unknown): Promise<ReportFormView> {
  const save = await parseOnceFound(ctx, "ReportFormCreate", (db, actor) => namedOrganisation(db, actor, raw), () => parseFormInput(raw));
  const newHash = await hashOf(save);
  const id = await mutate(ctx, "ReportFormCreate", async (tx, actor) => {
    const requested = save.organisationID ? requireUuid(save.organisationID, ORGANISATION_NOT_FOUND) : null;
    const organisationId = organisationScope(actor, requested, ORGANISATION_NOT_FOUND);
    // A super admin creates a form inside one named organisation.
    if (!organisationId) throw badInput(REQUIRED, [{ field: "organisationID", message: REQUIRED }]);
    const [organisation] = await tx.select({ id: organisations.id }).from(organisations).where(eq(organisations.id, organisationId));
    if (!organisation) throw new UserError("NOT_FOUND", ORGANISATION_NOT_FOUND);
    const [form] = await tx
      .insert(reportForms)
      .values({ ...save.settings, organisationId, name: save.name, type: "Custom", status: "Draft", locked: save.locked ?? false, pinHash: pinHashAfter(null, save.secure, newHash) })
      .returning();
    const buildId = await insertBuild(tx, { formId: form!.id }, 1, actor.userId, save.widgets);
    await tx.update(reportForms).set({ currentBuildId: buildId }).where(eq(reportForms.id, form!.id));
    await auditForm(tx, actor, form!, "Create");
    return form!.id;
  });
  return formView(ctx, id);
}

/**
 * Saves the editor's form as a new build. A locked form that stays locked is left as it is; the
 * save that unlocks it goes through. The row lock serialises saves, so the revision check inside
 * sees every earlier commit.
 */
export async function updateForm(ctx: Ctx, rawId: unknown, raw: unknown): Promise<ReportFormView> {
  const save = await parseOnceFound(
    ctx,
    "ReportFormUpdate",
    async (db, actor) => {
      const form = await reachableForm(db, actor, rawId);
      // A form never moves between organisations: naming another is naming nothing.
      const named = organisationIdIn(raw);
      if (named !== null && named !== undefined && String(named).toLowerCase() !== form.organisationId) throw new UserError("NOT_FOUND", ORGANISATION_NOT_FOUND);
    },
    () => parseFormInput(raw),
  );
  const newHash = await hashOf(save);
  const id = await mutate(ctx, "ReportFormUpdate", async (tx, actor) => {
    const form = await reachableForm(tx, actor, rawId, true);
    if (form.locked && save.locked !== false) return form.id;
    const revision = await requireCurrentRevision(tx, form.currentBuildId, save.baseRevision, "form");
    const buildId = await insertBuild(tx, { formId: form.id }, revision + 1, actor.userId, save.widgets);
    await tx
      .update(reportForms)
      .set({ ...save.settings, name: save.name, locked: save.locked ?? form.locked, pinHash: pinHashAfter(form.pinHash, save.secure, newHash), currentBuildId: buildId, updatedAt: new Date() })
      .where(eq(reportForms.id, form.id));
    await auditForm(tx, actor, { ...form, name: save.name }, "Update", { fields: savedFields(save) });
    return form.id;
  });
  return formView(ctx, id);
}
