import { and, asc, eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reportForms, reportFormWidgets, reportSubmissions } from "../../../db/schema/index.ts";
import type { Actor } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import type { FormWidget } from "../../shared/form-definition.ts";

/** The reporter-flow wording (the console says "no longer"); the spec keeps the two apart. */
import { REPORT_FORM_NOT_FOUND_REPORTER as REPORT_FORM_NOT_FOUND } from "../../shared/messages.ts";
export { REPORT_FORM_NOT_FOUND };

export type PublishedFormRow = typeof reportForms.$inferSelect & { deployedBuildId: string };

/** A form a reporter may fill in: this organisation's, Custom, Active, not archived, published. */
export async function findPublishedForm(db: Database, organisationId: string, formId: string): Promise<PublishedFormRow | null> {
  if (!isUuid(formId)) return null;
  const [form] = await db
    .select()
    .from(reportForms)
    .where(and(eq(reportForms.id, formId), eq(reportForms.organisationId, organisationId), eq(reportForms.archived, false), eq(reportForms.status, "Active")))
    .limit(1);
  if (!form || form.type !== "Custom" || !form.deployedBuildId) return null;
  return form as PublishedFormRow;
}

/** True for the organisation's own form of another kind than Custom (its enquiry form): the spec sends those to the organisation page. */
export async function isOtherKindOfForm(db: Database, organisationId: string, formId: string): Promise<boolean> {
  if (!isUuid(formId)) return false;
  const [form] = await db
    .select({ type: reportForms.type })
    .from(reportForms)
    .where(and(eq(reportForms.id, formId), eq(reportForms.organisationId, organisationId), eq(reportForms.archived, false)))
    .limit(1);
  return form !== undefined && form.type !== "Custom";
}

export async function requirePublishedForm(db: Database, organisationId: string, formId: string): Promise<PublishedFormRow> {
  const form = await findPublishedForm(db, organisationId, formId);
  if (!form) throw new UserError("NOT_FOUND", REPORT_FORM_NOT_FOUND);
  return form;
}

/** Builds are never changed once written (decision 020), so their widgets are kept by build id. */
const BUILD_CACHE_SIZE = 200;
const widgetsByBuild = new Map<string, FormWidget[]>();

export async function buildWidgets(db: Database, buildId: string): Promise<FormWidget[]> {
  const cached = widgetsByBuild.get(buildId);
  if (cached) return cached;
  const rows = await db.select().from(reportFormWidgets).where(eq(reportFormWidgets.buildId, buildId)).orderBy(asc(reportFormWidgets.position));
  const widgets = rows.map((row) =>
    Object.freeze({
      id: row.id,
      type: row.type,
      title: row.title,
      required: row.required,
      tooltip: row.tooltip,
      caption: row.caption,
      answers: Object.freeze(row.answers) as string[],
      pageName: row.pageName,
      condition: row.condition,
    }),
  );
  // A build not visible yet (or one being written in this very transaction) reads as empty: never kept.
  if (widgets.length === 0) return widgets;
  if (widgetsByBuild.size >= BUILD_CACHE_SIZE) widgetsByBuild.delete(widgetsByBuild.keys().next().value!);
  const frozen = Object.freeze(widgets) as FormWidget[];
  widgetsByBuild.set(buildId, frozen);
  return frozen;
}

export function isUnlocked(form: PublishedFormRow, actor: Actor): boolean {
  return form.pinHash === null || (actor.kind === "reporter" && actor.unlockedFormIds.includes(form.id));
}

/**
 * The build a reporter fills in: the one their unfinished report of this form began on (a publish
 * since then must not change the questions under them), else the deployed one. Never the editor's
 * unpublished current build.
 */
export async function reporterBuildId(db: Database, form: PublishedFormRow, actor: Actor): Promise<string> {
  if (actor.kind === "reporter" && actor.submissionId) {
    const [draft] = await db
      .select({ formId: reportSubmissions.formId, buildId: reportSubmissions.buildId, completed: reportSubmissions.completed })
      .from(reportSubmissions)
      .where(eq(reportSubmissions.id, actor.submissionId))
      .limit(1);
    if (draft && draft.formId === form.id && !draft.completed && draft.buildId) return draft.buildId;
  }
  return form.deployedBuildId;
}

/** What the reporter's pages receive: settings and, unless the form is still locked, its widgets. */
export interface ReporterFormView {
  id: string;
  reportFormID: string;
  /** The build the widgets come from, so the page can tell when a started report's build differs. */
  buildID: string;
  name: string;
  secured: boolean;
  unlocked: boolean;
  welcomeMessageTitle: string;
  welcomeMessageContent: string;
  finishMessageTitle: string;
  finishMessageContent: string;
  uploadFilesMessage: string;
  showImportantInfoMessage: boolean;
  assignedToSupportMessage: string;
  allowFileUploads: boolean;
  allowedFileTypes: string[];
  hasChat: boolean;
  allowChatFileUploads: boolean;
  showLogo: boolean;
  theme: Record<string, string>;
  widgets: FormWidget[];
}

export async function reporterFormView(db: Database, form: PublishedFormRow, actor: Actor): Promise<ReporterFormView> {
  const unlocked = isUnlocked(form, actor);
  const buildId = await reporterBuildId(db, form, actor);
  return {
    id: form.id,
    reportFormID: form.id,
    buildID: buildId,
    name: form.name,
    secured: form.pinHash !== null,
    unlocked,
    welcomeMessageTitle: form.welcomeMessageTitle,
    welcomeMessageContent: form.welcomeMessageContent,
    finishMessageTitle: form.finishMessageTitle || "Report Submitted",
    finishMessageContent: form.finishMessageContent,
    uploadFilesMessage: form.uploadFilesMessage,
    showImportantInfoMessage: form.showImportantInfoMessage,
    assignedToSupportMessage: form.assignedToSupportMessage,
    allowFileUploads: form.allowFileUploads,
    allowedFileTypes: form.allowedFileTypes,
    hasChat: form.hasChat,
    allowChatFileUploads: form.allowChatFileUploads,
    showLogo: form.showLogo,
    theme: form.theme,
    widgets: unlocked ? await buildWidgets(db, buildId) : [],
  };
}
