import { and, asc, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import * as v from "valibot";
import { organisations, reportForms, reportSubmissions, reportSubmissionTags, tags } from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { badInput, notFound } from "../../lib/errors.ts";
import { CROCKFORD_ALPHABET, normaliseReportId } from "../../lib/report-credentials.ts";
import { requireUuid } from "../../lib/ids.ts";
import { IdText, parseWith, SearchText } from "../../lib/validation.ts";
import { TEXT_LIMITS } from "../../shared/limits.ts";
import { REPORT_LIST_FILTERS, SORT_DIRECTIONS, SORT_KEYS, type ReportListFilter, type SubmissionStatus } from "../../shared/enums.ts";
import { isIsoDate } from "../../shared/form-definition.ts";
import { isSuperAdmin, organisationScope, requirePermission } from "../access/policy.ts";
import { organisationIdIn } from "../organisations/service.ts";
import { pageLimit, pageOffset } from "../users/service.ts";
import { listVersion, organisationCount, plainCount } from "./list-counts.ts";
import { isOrganisationManager, onTeam, visibleReports } from "./policy.ts";
import { toReportView, viewColumns, viewFields, type ReportView } from "./views.ts";

export const ORGANISATION_NOT_FOUND = "Organisation is not found";
export const REPORT_FORM_NOT_FOUND = "Report Form is not found";
export const TAG_NOT_FOUND = "Tag not found";
export const FUTURE_DATE = "Date cannot be in the future";
export const DATE_ORDER = "From date cannot be after To date";
export const INVALID_DATE = "Invalid date";
/** The exports (zip, csv) take every matching row at once; only server code may ask for it. */
export const EXPORT_ALL = -1;

const DAY_MS = 24 * 60 * 60 * 1000;
/** The furthest time zone ahead of UTC: a date that is already "today" somewhere is not in the future. */
const LATEST_ZONE_MS = 14 * 60 * 60 * 1000;

const dateText = v.nullish(v.pipe(v.string(), v.trim(), v.maxLength(TEXT_LIMITS.date.max, TEXT_LIMITS.date.tooLong)));
export const DateFilterSchema = v.nullish(v.object({ from: dateText, to: dateText }));

const SearchSchema = v.object({
  text: SearchText,
  filter: v.nullish(v.picklist(REPORT_LIST_FILTERS)),
  tagIDs: v.nullish(v.pipe(v.array(IdText), v.maxLength(20, "At most 20 tags can be combined"))),
  sortBy: v.nullish(v.picklist(SORT_KEYS)),
  sortDir: v.nullish(v.picklist(SORT_DIRECTIONS)),
  organisationID: v.nullish(IdText),
  excludeTestReports: v.nullish(v.boolean()),
  dateFilter: DateFilterSchema,
});

export type ReportSearch = v.InferInput<typeof SearchSchema>;
export type DateFilter = v.InferInput<typeof DateFilterSchema>;

export interface ReportListArgs {
  search?: ReportSearch | null;
  reportFormID?: string | null;
  limit?: number | null;
  offset?: number | null;
}

/** A date filter as an inclusive range of UTC calendar days; either end may be open. */
export interface DayRange {
  from: string | null;
  to: string | null;
}

/** Checks a `{ from, to }` filter of YYYY-MM-DD dates: real dates, none in the future, in order. */
export function parseDateFilter(input: DateFilter, now: Date = new Date()): DayRange {
  const given = parseWith(v.object({ dateFilter: DateFilterSchema }), { dateFilter: input }).dateFilter;
  const from = given?.from || null;
  const to = given?.to || null;
  const latestToday = new Date(now.getTime() + LATEST_ZONE_MS).toISOString().slice(0, 10);
  for (const [field, value] of [["from", from], ["to", to]] as const) {
    if (value === null) continue;
    if (!isIsoDate(value)) throw badInput(INVALID_DATE, [{ field: `dateFilter.${field}`, message: INVALID_DATE }]);
    if (value > latestToday) throw badInput(FUTURE_DATE, [{ field: `dateFilter.${field}`, message: FUTURE_DATE }]);
  }
  if (from && to && from > to) throw badInput(DATE_ORDER, [{ field: "dateFilter.from", message: DATE_ORDER }]);
  return { from, to };
}

export const startOfDay = (day: string) => new Date(`${day}T00:00:00.000Z`);
export const endOfDay = (day: string) => new Date(startOfDay(day).getTime() + DAY_MS);

/** completedAt within the range; plain comparisons on the column, so an index on it stays usable. */
export function completedWithin(range: DayRange): SQL[] {
  return [
    ...(range.from ? [gte(reportSubmissions.completedAt, startOfDay(range.from))] : []),
    ...(range.to ? [lt(reportSubmissions.completedAt, endOfDay(range.to))] : []),
  ];
}

/**
 * The organisation a report query is confined to, from an outside id. Others' ids (and, for a
 * super admin, ids that name no organisation) answer "not found" so they cannot be probed.
 */
export async function reportScope(ctx: Ctx, actor: StaffActor, organisationID: string | null | undefined): Promise<string | null> {
  const requested = organisationID ? requireUuid(organisationID, ORGANISATION_NOT_FOUND) : null;
  if (!isSuperAdmin(actor)) {
    // Members and guests may be on other organisations' teams, so only an explicit id narrows them.
    const own = organisationScope(actor, requested, ORGANISATION_NOT_FOUND);
    return requested ? own : null;
  }
  if (requested) {
    const [row] = await ctx.db.select({ id: organisations.id }).from(organisations).where(eq(organisations.id, requested)).limit(1);
    if (!row) throw notFound(ORGANISATION_NOT_FOUND);
  }
  return requested;
}

/** Reports the actor may see, narrowed to one organisation when one is named. */
export function scopedReports(actor: StaffActor, organisationId: string | null): SQL {
  const visible = visibleReports(actor, organisationId);
  if (!organisationId || isSuperAdmin(actor)) return visible;
  return and(visible, eq(reportSubmissions.organisationId, organisationId))!;
}

/** Super admins and guest members never see the internal reference, so they cannot search by it either. */
const seesReference = (actor: StaffActor) => actor.role !== "SUPER_ADMIN" && actor.role !== "GUEST_MEMBER";

const STATUS_FILTERS: Partial<Record<ReportListFilter, SubmissionStatus>> = {
  ClosedReports: "Closed",
  CompletedReports: "Completed",
  RejectedReports: "Rejected",
  InvestigatedReports: "Investigated",
  NotInvestigatedReports: "NotInvestigated",
  SubstantiatedReports: "Substantiated",
  NotSubstantiatedReports: "NotSubstantiated",
  ActionTakenReports: "ActionTaken",
  NoActionTakenReports: "NoActionTaken",
};

function filterCondition(actor: StaffActor, filter: ReportListFilter): SQL | undefined {
  const notArchived = eq(reportSubmissions.archived, false);
  if (filter === "All") return undefined;
  if (filter === "Archived") return eq(reportSubmissions.archived, true);
  if (filter === "MyReports") return and(notArchived, onTeam(actor.userId));
  const status = STATUS_FILTERS[filter];
  return status ? and(notArchived, eq(reportSubmissions.status, status)) : notArchived;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const SYMBOLS = `[${CROCKFORD_ALPHABET}]{5}`;
const WHOLE_REPORT_ID = new RegExp(`^${SYMBOLS}-${SYMBOLS}$`);

/**
 * A search text that is a whole report ID typed loosely (no dash, spaces, O for 0, I or L for 1,
 * as a reporter may read it out), as it is stored; null for anything else.
 */
function typedReportId(text: string): string | null {
  const id = normaliseReportId(text);
  return WHOLE_REPORT_ID.test(id) ? id : null;
}

/** The fewest characters a trigram index can look up. */
const TRIGRAM_LENGTH = 3;

/**
 * The column contains the text, in any case. From three characters on this is ILIKE, which the
 * column's trigram index serves. A shorter text holds no trigram, so the index would be read
 * whole; a prepared statement's generic plan, which cannot see the text, would still choose it.
 * So a short text is compared as ILIKE itself compares (both sides lowered), which no index
 * serves: the planner then walks the list's own order, as it did before the trigram indexes.
 */
function contains(column: PgColumn, text: string): SQL {
  const pattern = `%${escapeLike(text)}%`;
  return text.length >= TRIGRAM_LENGTH ? ilike(column, pattern) : sql`lower(${column}) like lower(${pattern})`;
}

/**
 * The report ID contains the text, or the text is the whole ID typed loosely. Both are index
 * lookups: the trigram index serves the first, the unique index the second.
 */
export function reportIdMatches(text: string): SQL {
  const typed = typedReportId(text);
  const within = contains(reportSubmissions.reportId, text);
  return typed ? or(within, eq(reportSubmissions.reportId, typed))! : within;
}

/**
 * Substring search over the report ID, the internal reference (for those who see it), the form's
 * name and the names of its tags. Every arm of the OR must be an index lookup on the reports, or
 * Postgres tests each report of the organisation against the text (decision 012): so the few
 * forms and tags whose names match are looked up first, and arms that cannot match are left out.
 */
async function textCondition(ctx: Ctx, actor: StaffActor, organisationId: string | null, text: string): Promise<SQL> {
  const pattern = `%${escapeLike(text)}%`;
  // Only narrows the look-up: the visibility condition still decides which reports are seen.
  const tenant = organisationId ?? (isOrganisationManager(actor) ? actor.organisationId : null);
  const [forms, tagged] = await Promise.all([
    ctx.db.select({ id: reportForms.id }).from(reportForms).where(and(ilike(reportForms.name, pattern), tenant ? eq(reportForms.organisationId, tenant) : undefined)),
    // Archived tags are not shown on reports, so they do not match either.
    ctx.db.select({ id: tags.id }).from(tags).where(and(eq(tags.archived, false), ilike(tags.name, pattern), tenant ? eq(tags.organisationId, tenant) : undefined)),
  ]);
  const tagIds = tagged.map((tag) => tag.id);
  return or(
    reportIdMatches(text),
    ...(seesReference(actor) ? [contains(reportSubmissions.internalReference, text)] : []),
    ...(forms.length > 0 ? [inArray(reportSubmissions.formId, forms.map((form) => form.id))] : []),
    // `= any(array(…))` rather than `in (…)`: an IN subquery inside an OR is tested report by report.
    ...(tagIds.length > 0
      ? [sql`${reportSubmissions.id} = any(array(select ${reportSubmissionTags.submissionId} from ${reportSubmissionTags} where ${inArray(reportSubmissionTags.tagId, tagIds)}))`]
      : []),
  )!;
}

/** One EXISTS per tag: a report must carry every one of them. */
const hasTag = (tagId: string) =>
  sql`exists (select 1 from ${reportSubmissionTags} where ${reportSubmissionTags.submissionId} = ${reportSubmissions.id} and ${reportSubmissionTags.tagId} = ${tagId})`;

const SORT_COLUMNS = {
  // For staff a report begins when it is completed (drafts are nobody's), so "created" is completedAt.
  DateCreated: "completedAt",
  DateUpdated: "updatedAt",
  Alphabetical: "reportId",
} as const;

/** A list request, checked: its condition, order and page, and the one organisation it counts in, if any. */
interface ListPlan {
  actor: StaffActor;
  where: SQL;
  sortColumn: (typeof SORT_COLUMNS)[keyof typeof SORT_COLUMNS];
  direction: typeof asc;
  /** Null: every row (the exports). */
  limit: number | null;
  offset: number;
  countedIn: string | null;
}

async function planList(ctx: Ctx, args: ReportListArgs, allowExportAll: boolean): Promise<ListPlan> {
  const actor = requirePermission(ctx, "ReportSubmissionList");
  // The organisation named, its id's shape checked, is found before the rest of the search is judged (decision 065).
  const named = parseWith(v.object({ organisationID: SearchSchema.entries.organisationID }), { organisationID: organisationIdIn(args.search) });
  const organisationId = await reportScope(ctx, actor, named.organisationID);
  const search = parseWith(SearchSchema, args.search ?? {});
  const range = parseDateFilter(search.dateFilter);
  const conditions: (SQL | undefined)[] = [scopedReports(actor, organisationId), filterCondition(actor, search.filter ?? "Active"), ...completedWithin(range)];
  if (args.reportFormID) conditions.push(eq(reportSubmissions.formId, requireUuid(args.reportFormID, REPORT_FORM_NOT_FOUND)));
  if (search.excludeTestReports) conditions.push(eq(reportSubmissions.isTest, false));
  if (search.text) conditions.push(await textCondition(ctx, actor, organisationId, search.text));
  for (const tagId of new Set((search.tagIDs ?? []).map((id) => requireUuid(id, TAG_NOT_FOUND)))) conditions.push(hasTag(tagId));
  return {
    actor,
    where: and(...conditions)!,
    sortColumn: SORT_COLUMNS[search.sortBy ?? "DateCreated"],
    direction: search.sortDir === "Ascending" ? asc : desc,
    limit: allowExportAll && args.limit === EXPORT_ALL ? null : pageLimit(args.limit),
    offset: pageOffset(args.offset),
    // Owners and admins see their organisation's reports only; others are confined by naming one.
    countedIn: isOrganisationManager(actor) ? actor.organisationId : organisationId,
  };
}

/**
 * The total without counting when the page shows it: a page that is not full and not past the
 * end holds the last of the matching reports.
 */
function totalFromPage(plan: ListPlan, rows: number): number | null {
  if (plan.limit === null || (rows < plan.limit && (rows > 0 || plan.offset === 0))) return plan.offset + rows;
  return null;
}

async function listTotal(ctx: Ctx, plan: ListPlan, rows: number, seenVersion: string | null): Promise<number> {
  const shown = totalFromPage(plan, rows);
  if (shown !== null) return shown;
  return plan.countedIn ? organisationCount(ctx.db, plan.where, plan.countedIn, seenVersion) : plainCount(ctx.db, plan.where);
}

/**
 * A page of the reports the actor may see, as ids in display order, and how many match in all.
 * `allowExportAll` lets server code (the exports) pass `limit: -1` for every row.
 */
export async function listReportIds(ctx: Ctx, args: ReportListArgs, options: { allowExportAll?: boolean } = {}): Promise<{ total: number; ids: string[] }> {
  const plan = await planList(ctx, args, options.allowExportAll === true);
  const column = reportSubmissions[plan.sortColumn];
  const query = ctx.db
    .select({ id: reportSubmissions.id, ...(plan.countedIn ? { version: listVersion(plan.countedIn) } : {}) })
    .from(reportSubmissions)
    .where(plan.where)
    // The id breaks ties, so rows with equal dates never swap between pages.
    .orderBy(plan.direction(column), plan.direction(reportSubmissions.id))
    .$dynamic();
  const rows = await (plan.limit === null ? query : query.limit(plan.limit)).offset(plan.offset);
  const total = await listTotal(ctx, plan, rows.length, rows[0]?.version ?? null);
  return { total, ids: rows.map((row) => row.id) };
}

/**
 * A page of the list with its views and total: one statement (the page, its reports' teams and
 * tags, and the organisation's list version), and a count only when the kept one is out of date
 * (list-counts.ts). `withCounts` adds each report's attachment and unread message counts.
 */
export async function listReports(ctx: Ctx, args: ReportListArgs, withCounts: boolean): Promise<{ total: number; list: ReportView[] }> {
  const plan = await planList(ctx, args, false);
  const page = ctx.db
    .select(viewColumns())
    .from(reportSubmissions)
    .where(plan.where)
    .orderBy(plan.direction(reportSubmissions[plan.sortColumn]), plan.direction(reportSubmissions.id))
    .limit(plan.limit ?? 0)
    .offset(plan.offset)
    .as("page");
  const rows = await ctx.db
    .select({ ...viewFields(page, withCounts), ...(plan.countedIn ? { version: listVersion(plan.countedIn) } : {}) })
    .from(page)
    .innerJoin(reportForms, eq(reportForms.id, page.formId))
    .innerJoin(organisations, eq(organisations.id, page.organisationId))
    .orderBy(plan.direction(page[plan.sortColumn]), plan.direction(page.id));
  const total = await listTotal(ctx, plan, rows.length, rows[0]?.version ?? null);
  return { total, list: rows.map((row) => toReportView(plan.actor, row)) };
}
