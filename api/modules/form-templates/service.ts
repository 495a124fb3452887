import { and, asc, count, eq, ilike, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reportFormTemplates } from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { containsPattern, searchTextOf } from "../../lib/validation.ts";
import type { ListFilter } from "../../shared/enums.ts";
import type { Permission } from "../../shared/permissions.ts";
import { isSuperAdmin, mutate, parseOnceFound, requirePermission } from "../access/policy.ts";
import { recordActivity } from "../audit/service.ts";
import { insertBuild, requireCurrentRevision } from "../forms/builds.ts";
import { parseTemplateInput } from "../forms/inputs.ts";
import { pageLimit, pageOffset } from "../users/service.ts";

/**
 * Form templates: platform-wide starting points for new forms, kept by super admins. Organisation
 * staff may read the active ones (the forms list offers them as tiles); archived ones are the
 * platform's business only, so to anyone else they do not exist.
 */

export const TEMPLATE_NOT_FOUND = "Form Template is not found";

export type TemplateView = typeof reportFormTemplates.$inferSelect;

export interface TemplateListArgs {
  search?: string | null;
  filter?: ListFilter | null;
  limit?: number | null;
  offset?: number | null;
}

export async function listTemplates(ctx: Ctx, args: TemplateListArgs): Promise<{ total: number; list: TemplateView[] }> {
  const actor = requirePermission(ctx, "ReportFormTemplateList");
  const filters: SQL[] = [];
  const filter = isSuperAdmin(actor) ? (args.filter ?? "Active") : "Active";
  if (filter !== "All") filters.push(eq(reportFormTemplates.archived, filter === "Archived"));
  const search = searchTextOf(args.search);
  if (search) filters.push(ilike(reportFormTemplates.name, containsPattern(search)));
  const where = filters.length ? and(...filters) : undefined;
  const [total] = await ctx.db.select({ n: count() }).from(reportFormTemplates).where(where);
  const list = await ctx.db
    .select()
    .from(reportFormTemplates)
    .where(where)
    .orderBy(asc(sql`lower(${reportFormTemplates.name})`), asc(reportFormTemplates.id))
    .limit(pageLimit(args.limit))
    .offset(pageOffset(args.offset));
  return { total: total?.n ?? 0, list };
}

async function reachableTemplate(db: Database, actor: StaffActor, rawId: unknown, forUpdate = false): Promise<TemplateView> {
  if (!isUuid(rawId)) throw new UserError("NOT_FOUND", TEMPLATE_NOT_FOUND);
  const query = db.select().from(reportFormTemplates).where(eq(reportFormTemplates.id, rawId.toLowerCase()));
  const [template] = forUpdate ? await query.for("update") : await query;
  if (!template || (template.archived && !isSuperAdmin(actor))) throw new UserError("NOT_FOUND", TEMPLATE_NOT_FOUND);
  return template;
}

export async function getTemplate(ctx: Ctx, rawId: unknown): Promise<TemplateView> {
  const actor = requirePermission(ctx, "ReportFormTemplateRead");
  return reachableTemplate(ctx.db, actor, rawId);
}

const templateView = async (db: Database, id: string) => (await db.select().from(reportFormTemplates).where(eq(reportFormTemplates.id, id)))[0]!;

/**
 * The audit log has no object type for templates (AUDIT_OBJECT_TYPES); a template is a form in
 * the making, so its entries are ReportForm entries of no organisation, told apart by action.
 */
const auditTemplate = (tx: Database, actor: StaffActor, template: { id: string; name: string }, action: string, extra: Record<string, unknown> = {}) =>
  recordActivity(tx, actor, { organisationId: null, objectType: "ReportForm", objectId: template.id, action: `Template${action}`, metadata: { name: template.name, ...extra } });

export async function createTemplate(ctx: Ctx, raw: unknown): Promise<TemplateView> {
  requirePermission(ctx, "ReportFormTemplateCreate");
  const input = parseTemplateInput(raw);
  const id = await mutate(ctx, "ReportFormTemplateCreate", async (tx, actor) => {
    const [template] = await tx.insert(reportFormTemplates).values({ name: input.name }).returning();
    const buildId = await insertBuild(tx, { templateId: template!.id }, 1, actor.userId, input.widgets);
    await tx.update(reportFormTemplates).set({ currentBuildId: buildId }).where(eq(reportFormTemplates.id, template!.id));
    await auditTemplate(tx, actor, template!, "Create");
    return template!.id;
  });
  return templateView(ctx.db, id);
}

/** Every save is a new build; a save from an older revision than the current one is refused with who saved since. */
export async function updateTemplate(ctx: Ctx, rawId: unknown, raw: unknown): Promise<TemplateView> {
  const input = await parseOnceFound(ctx, "ReportFormTemplateUpdate", (db, actor) => reachableTemplate(db, actor, rawId), () => parseTemplateInput(raw));
  const id = await mutate(ctx, "ReportFormTemplateUpdate", async (tx, actor) => {
    const template = await reachableTemplate(tx, actor, rawId, true);
    const revision = await requireCurrentRevision(tx, template.currentBuildId, input.baseRevision, "template");
    const buildId = await insertBuild(tx, { templateId: template.id }, revision + 1, actor.userId, input.widgets);
    await tx.update(reportFormTemplates).set({ name: input.name, currentBuildId: buildId, updatedAt: new Date() }).where(eq(reportFormTemplates.id, template.id));
    await auditTemplate(tx, actor, { id: template.id, name: input.name }, "Update", { fields: ["name", "widgets"] });
    return template.id;
  });
  return templateView(ctx.db, id);
}

export async function setTemplateArchived(ctx: Ctx, rawId: unknown, archived: boolean): Promise<TemplateView> {
  const permission: Permission = archived ? "ReportFormTemplateArchive" : "ReportFormTemplateUnarchive";
  const id = await mutate(ctx, permission, async (tx, actor) => {
    const template = await reachableTemplate(tx, actor, rawId, true);
    if (template.archived === archived) throw new UserError("CONFLICT", archived ? "Form Template is already archived" : "Form Template is not archived");
    await tx.update(reportFormTemplates).set({ archived, archivedAt: archived ? new Date() : null, updatedAt: new Date() }).where(eq(reportFormTemplates.id, template.id));
    await auditTemplate(tx, actor, template, archived ? "Archive" : "Unarchive", { archived });
    return template.id;
  });
  return templateView(ctx.db, id);
}
