import { and, count, eq, inArray } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { organisations, reportFormNotes, reportForms } from "../../../db/schema/index.ts";
import type { Config } from "../../config.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import type { BuildPublishState } from "../../shared/enums.ts";
import { canReachOrganisation } from "../access/policy.ts";
import { recordActivity } from "../audit/service.ts";

/** What the console reads of a report form: the row without its password hash, plus what derives from it. */

export const REPORT_FORM_NOT_FOUND = "Report Form is not found";

export type FormRow = typeof reportForms.$inferSelect;

export type ReportFormView = Omit<FormRow, "pinHash"> & {
  secured: boolean;
  organisation: { id: string; name: string; slug: string };
  notesCount: number;
  hasNotes: boolean;
  publishState: BuildPublishState;
  publicURL: string | null;
};

export function publishStateOf(form: Pick<FormRow, "currentBuildId" | "deployedBuildId">): BuildPublishState {
  if (!form.deployedBuildId) return "Unpublished";
  return form.deployedBuildId === form.currentBuildId ? "Published" : "Outdated";
}

/**
 * Where reporters open the form: the organisation's own host (the app domain without its 'app.'),
 * the port only in development and only when it is not the protocol's default.
 */
export function publicFormUrl(config: Pick<Config, "protocol" | "appDomain" | "port" | "production">, slug: string, formId: string): string {
  return `${organisationSiteUrl(config, slug)}report/${formId}`;
}

/** An organisation's public page: its slug as a subdomain of the product's domain ('app.' stripped). */
export function organisationSiteUrl(config: Pick<Config, "protocol" | "appDomain" | "port" | "production">, slug: string): string {
  const domain = config.appDomain.replace(/^app\./i, "");
  const defaultPort = config.port === 80 || config.port === 443;
  const port = config.production || defaultPort ? "" : `:${config.port}`;
  return `${config.protocol}://${slug}.${domain}${port}/`;
}

/** Views of these forms, in the order given. */
export async function formViews(ctx: Ctx, rows: readonly FormRow[]): Promise<ReportFormView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const orgIds = [...new Set(rows.map((row) => row.organisationId))];
  const [orgs, notes] = await Promise.all([
    ctx.db.select({ id: organisations.id, name: organisations.name, slug: organisations.slug }).from(organisations).where(inArray(organisations.id, orgIds)),
    ctx.db
      .select({ formId: reportFormNotes.formId, n: count() })
      .from(reportFormNotes)
      .where(and(inArray(reportFormNotes.formId, ids), eq(reportFormNotes.archived, false)))
      .groupBy(reportFormNotes.formId),
  ]);
  const orgById = new Map(orgs.map((org) => [org.id, org]));
  const notesById = new Map(notes.map((note) => [note.formId, note.n]));
  return rows.map(({ pinHash, ...row }) => {
    const organisation = orgById.get(row.organisationId)!;
    const notesCount = notesById.get(row.id) ?? 0;
    const publishState = publishStateOf(row);
    return {
      ...row,
      secured: pinHash !== null,
      organisation,
      notesCount,
      hasNotes: notesCount > 0,
      publishState,
      publicURL: publishState === "Unpublished" ? null : publicFormUrl(ctx.services.config, organisation.slug, row.id),
    };
  });
}

export async function formView(ctx: Ctx, id: string): Promise<ReportFormView> {
  const [row] = await ctx.db.select().from(reportForms).where(eq(reportForms.id, id));
  if (!row) throw new UserError("NOT_FOUND", REPORT_FORM_NOT_FOUND);
  return (await formViews(ctx, [row]))[0]!;
}

/**
 * A Custom form of an organisation the actor reaches, else "not found" (malformed ids, other
 * organisations' forms and the Enquiry form alike). `forUpdate` locks the row for a change.
 */
export async function reachableForm(db: Database, actor: StaffActor, rawId: unknown, forUpdate = false): Promise<FormRow> {
  if (!isUuid(rawId)) throw new UserError("NOT_FOUND", REPORT_FORM_NOT_FOUND);
  const query = db.select().from(reportForms).where(eq(reportForms.id, rawId.toLowerCase()));
  const [form] = forUpdate ? await query.for("update") : await query;
  if (!form || form.type !== "Custom" || !canReachOrganisation(actor, form.organisationId)) throw new UserError("NOT_FOUND", REPORT_FORM_NOT_FOUND);
  return form;
}

/** The audit entry of a form change, in its transaction; the log shows the form's name and id. */
export const auditForm = (tx: Database, actor: StaffActor, form: Pick<FormRow, "id" | "organisationId" | "name">, action: string, extra: Record<string, unknown> = {}) =>
  recordActivity(tx, actor, {
    organisationId: form.organisationId,
    objectType: "ReportForm",
    objectId: form.id,
    action,
    metadata: { name: form.name, report_form_id: form.id, ...extra },
  });
