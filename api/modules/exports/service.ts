import * as v from "valibot";
import type { Ctx, StaffActor } from "../../context.ts";
import { and, eq, inArray } from "drizzle-orm";
import { tags } from "../../../db/schema/index.ts";
import { badInput, forbidden, notFound, UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { IdText, parseWith } from "../../lib/validation.ts";
import type { RoleName } from "../../shared/enums.ts";
import type { FormPage } from "../../shared/form-definition.ts";
import { isSuperAdmin, requireStaff } from "../access/policy.ts";
import { recordActivity } from "../audit/service.ts";
import { EXPORT_ALL, listReportIds, TAG_NOT_FOUND, type ReportSearch } from "../reports/list.ts";
import { reportFor } from "../reports/policy.ts";
import { loadReportViews, type ReportView } from "../reports/views.ts";
import { toCsv } from "./csv.ts";
import { loadReportDocuments, shortName } from "./document.ts";
import { renderReportHtml, statusLabel } from "./html.ts";
import { ZipWriter } from "./zip.ts";

/**
 * The console's exports (spec, admin console §2 and §7): one report as an HTML file, the matching
 * reports as a zip of those files, and the matching reports as a CSV. Each leaves an audit entry,
 * written before the file is handed over, so no export goes unrecorded.
 */

export const TOO_MANY_REPORTS = "Too many reports to export at once; narrow the filter.";
/** Every report is rendered and held (compressed) in memory; past this the request is refused. */
export const MAX_ZIP_REPORTS = 5_000;
/** CSV rows are small, but the file is still built in memory. */
export const MAX_CSV_REPORTS = 100_000;
/** Reports loaded per round of queries. */
const CHUNK = 200;

/** Export Report: owners and admins (spec §6, never guests or members), and super admins. */
const REPORT_EXPORTERS: readonly RoleName[] = ["SUPER_ADMIN", "ORGANISATION_OWNER", "ORGANISATION_ADMIN"];
/** Export Reports (zip) shows for owner and admin only (spec §2). */
const ZIP_EXPORTERS: readonly RoleName[] = ["ORGANISATION_OWNER", "ORGANISATION_ADMIN"];
/** Reporting CSV: super admin, owner and admin (spec §2). */
const CSV_EXPORTERS: readonly RoleName[] = ["SUPER_ADMIN", "ORGANISATION_OWNER", "ORGANISATION_ADMIN"];

export interface ExportFile {
  fileName: string;
  contentType: string;
  body: Uint8Array<ArrayBuffer>;
}

/**
 * The search keys the report list knows (its schema in reports/list.ts checks their values). The
 * typecheck keeps this in step with the list: a key missing here, or one the list lacks, fails it.
 */
const SEARCH_KEYS = {
  text: true,
  filter: true,
  tagIDs: true,
  sortBy: true,
  sortDir: true,
  organisationID: true,
  excludeTestReports: true,
  dateFilter: true,
} satisfies Record<keyof ReportSearch, true>;

/** The parts of the body that are objects: a JSON object with the given keys and no others, or absent. */
function jsonObject<const E extends v.ObjectEntries>(where: string | null, entries: E) {
  const what = where ?? "The request body";
  return v.pipe(
    // An array is an object to valibot, and its keys would be read from Array.prototype ("filter" is a function).
    v.custom<Record<string, unknown>>((input) => typeof input === "object" && input !== null && !Array.isArray(input), `${what} must be a JSON object.`),
    // A misspelt or invented field is refused, as GraphQL refuses it for the list, rather than ignored into a wider export.
    v.strictObject(entries, (issue) => (issue.expected === "never" ? `Unknown field "${where ? `${where}.` : ""}${String(issue.path?.at(-1)?.key)}" in the export request.` : `${what} must be a JSON object.`)),
  );
}

const anyValue = v.optional(v.unknown());

/** The list's body as the console sends it: `{ search, limit: -1, offset: 0 }`; the export is always every matching row. */
const ExportBody = jsonObject(null, {
  search: v.nullish(
    jsonObject("search", {
      // The values are the list's to check (reports/list.ts), with its own rules and messages.
      ...Object.fromEntries(Object.keys(SEARCH_KEYS).map((key) => [key, anyValue])),
      dateFilter: v.nullish(jsonObject("search.dateFilter", { from: anyValue, to: anyValue })),
    }),
  ),
  reportFormID: v.nullish(v.pipe(v.string("reportFormID must be a report form id (text)."), IdText)),
  limit: v.nullish(v.literal(EXPORT_ALL, "limit must be -1 (every matching report)")),
  offset: v.nullish(v.literal(0, "offset must be 0")),
});

function requireRole(ctx: Ctx, roles: readonly RoleName[]): StaffActor {
  const actor = requireStaff(ctx);
  if (!roles.includes(actor.role)) throw forbidden();
  return actor;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** Report IDs are Crockford base32 with hyphens; anything else is replaced so a name is always a plain file name. */
export const reportFileName = (reportID: string) => `Report ${reportID.replace(/[^A-Za-z0-9_-]/g, "_") || "unknown"}.html`;

async function audit(ctx: Ctx, actor: StaffActor, entry: { organisationId: string | null; objectId?: string; objectCode?: string | null; action: string; metadata?: Record<string, unknown> }) {
  // Its own transaction: an export changes nothing else, and the entry must be committed before the file leaves.
  await ctx.db.transaction((tx) => recordActivity(tx, actor, { objectType: "ReportSubmission", ...entry }));
}

/** The ids of every report matching the body's search that the actor may see (as the list shows them), test reports left out. */
async function matchingReports(ctx: Ctx, actor: StaffActor, body: unknown, max: number): Promise<{ ids: string[]; organisationId: string | null }> {
  const input = parseWith(ExportBody, body);
  // Test reports never leave in an export (spec §9), whatever the console sends.
  const search = { ...(input.search ?? {}), excludeTestReports: true } as ReportSearch;
  const { ids } = await listReportIds(ctx, { search, reportFormID: input.reportFormID ?? null, limit: EXPORT_ALL, offset: 0 }, { allowExportAll: true }).catch(namingSearchFields);
  if (ids.length > max) throw badInput(TOO_MANY_REPORTS);
  // listReportIds has already refused organisations the actor cannot reach, and tag ids that are not ids.
  const named = typeof search.organisationID === "string" && isUuid(search.organisationID) ? search.organisationID : null;
  const organisationId = isSuperAdmin(actor) ? named : actor.organisationId;
  await requireKnownTags(ctx, organisationId, search.tagIDs ?? []);
  return { ids, organisationId };
}

/** The list names a bad value by its key within the search; the export's body has it under `search`. */
function namingSearchFields(error: unknown): never {
  if (!(error instanceof UserError) || error.code !== "BAD_USER_INPUT" || error.fields.length === 0) throw error;
  const fields = error.fields.map(({ field, message }) => ({ field: `search.${field}`, message }));
  throw badInput(`${fields[0]!.field}: ${fields[0]!.message}`, fields);
}

/**
 * A filter by a tag that does not exist, or is another organisation's, would export nothing and
 * look like "no such reports": it is refused as the list's "Tag not found" instead.
 */
async function requireKnownTags(ctx: Ctx, organisationId: string | null, tagIds: string[]): Promise<void> {
  const wanted = [...new Set(tagIds)];
  if (wanted.length === 0) return;
  const scope = organisationId ? [eq(tags.organisationId, organisationId)] : [];
  const found = await ctx.db.select({ id: tags.id }).from(tags).where(and(inArray(tags.id, wanted), ...scope));
  if (found.length !== wanted.length) throw notFound(TAG_NOT_FOUND);
}

async function* viewsInChunks(ctx: Ctx, actor: StaffActor, ids: string[]): AsyncGenerator<ReportView[]> {
  for (let start = 0; start < ids.length; start += CHUNK) yield loadReportViews(ctx, actor, ids.slice(start, start + CHUNK));
}

/** GET /api/report-submissions/export/:id */
export async function exportReport(ctx: Ctx, id: unknown): Promise<ExportFile> {
  requireRole(ctx, REPORT_EXPORTERS);
  // Another organisation's report, or a malformed id, is "not found" here as everywhere (decision 009).
  const access = await reportFor(ctx, ctx.db, id, "ReportSubmissionRead");
  const views = await loadReportViews(ctx, access.actor, [access.submission.id]);
  const [document] = await loadReportDocuments(ctx, views);
  const html = renderReportHtml(document!);
  const { submission } = access;
  await audit(ctx, access.actor, { organisationId: submission.organisationId, objectId: submission.id, objectCode: submission.reportId, action: "Export" });
  return { fileName: reportFileName(submission.reportId ?? ""), contentType: "text/html; charset=utf-8", body: new TextEncoder().encode(html) };
}

/** POST /api/report-submissions/export-all */
export async function exportAllReports(ctx: Ctx, body: unknown): Promise<ExportFile> {
  const actor = requireRole(ctx, ZIP_EXPORTERS);
  const { ids, organisationId } = await matchingReports(ctx, actor, body, MAX_ZIP_REPORTS);
  const now = new Date();
  const zip = new ZipWriter();
  const pagesByBuild = new Map<string, Promise<FormPage[]>>();
  for await (const views of viewsInChunks(ctx, actor, ids)) {
    for (const document of await loadReportDocuments(ctx, views, pagesByBuild)) zip.add(reportFileName(document.report.reportID), renderReportHtml(document, now), now);
  }
  await audit(ctx, actor, { organisationId, action: "ExportAll", metadata: { count: zip.count } });
  return { fileName: `reports-export-${isoDay(now)}.zip`, contentType: "application/zip", body: zip.finish() };
}

export const CSV_COLUMNS = ["Report ID", "Form", "Organisation", "Status", "Priority", "Internal Reference", "Tags", "Assigned Users", "Completed At", "Updated At"] as const;

/**
 * One report as a CSV row. Deliberately no answers, notes or messages: a spreadsheet is mailed,
 * shared and kept far beyond the console's access rules, so it carries the triage facts only.
 */
function csvRow(report: ReportView): string[] {
  return [
    report.reportID,
    report.form.name,
    report.organisation.name,
    statusLabel(report.status),
    report.priority,
    // Null for super admins, who never see it (spec §6).
    report.internalReference ?? "",
    report.tags.map((tag) => tag.name).join("; "),
    report.assignedUsers.map(({ user }) => shortName(user)).join("; "),
    report.completedAt?.toISOString() ?? "",
    report.updatedAt.toISOString(),
  ];
}

/** POST /api/report-submissions/download-csv */
export async function exportReportsCsv(ctx: Ctx, body: unknown): Promise<ExportFile> {
  const actor = requireRole(ctx, CSV_EXPORTERS);
  const { ids, organisationId } = await matchingReports(ctx, actor, body, MAX_CSV_REPORTS);
  const rows: string[][] = [[...CSV_COLUMNS]];
  for await (const views of viewsInChunks(ctx, actor, ids)) rows.push(...views.map(csvRow));
  await audit(ctx, actor, { organisationId, action: "ExportCsv", metadata: { count: rows.length - 1 } });
  return { fileName: `reports-${isoDay(new Date())}.csv`, contentType: "text/csv; charset=utf-8", body: new TextEncoder().encode(toCsv(rows)) };
}
