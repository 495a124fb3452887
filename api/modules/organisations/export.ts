import { and, asc, count, eq, sql } from "drizzle-orm";
import * as v from "valibot";
import { organisations, users } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { parseWith } from "../../lib/validation.ts";
import { LIST_FILTERS } from "../../shared/enums.ts";
import { recordActivity } from "../audit/service.ts";
import { toCsv } from "../exports/csv.ts";
import type { ExportFile } from "../exports/service.ts";
import { isSuperAdmin, requirePermission } from "../access/policy.ts";
import { forbidden } from "../../lib/errors.ts";

/**
 * POST /api/admin/export/organisations (spec §7 REST): the super admin's list as a CSV file,
 * {search: All | Active | Archived}. It holds what the console shows of an organisation and no secret
 * (no login code, no blob keys); cells that a spreadsheet would run as formulas are neutralised (csv.ts).
 */
export const ORGANISATIONS_EXPORT_FILE = "organisations-export.csv";

const ExportRequest = v.object({ search: v.optional(v.picklist(LIST_FILTERS, "search must be All, Active or Archived"), "All") });

const HEADER = ["ID", "Name", "ABN", "Slug", "Created At", "Archived", "Open Seats", "Active Users", "Email 2FA", "SSO", "Form Translations"];

export async function exportOrganisationsCsv(ctx: Ctx, body: unknown): Promise<ExportFile> {
  const actor = requirePermission(ctx, "OrganisationList");
  if (!isSuperAdmin(actor)) throw forbidden();
  const { search } = parseWith(ExportRequest, body);
  const where = search === "All" ? undefined : eq(organisations.archived, search === "Archived");
  // The seat rule's count of active users (seats.ts): staff of the organisation who are not suspended.
  const activeUsers = ctx.db.select({ n: count() }).from(users).where(and(eq(users.organisationId, organisations.id), eq(users.suspended, false)));
  const rows = await ctx.db
    .select({
      id: organisations.id,
      name: organisations.name,
      abn: organisations.abn,
      slug: organisations.slug,
      createdAt: organisations.createdAt,
      archived: organisations.archived,
      openSeatNumber: organisations.openSeatNumber,
      activeUsers: sql<number>`(${activeUsers})`.mapWith(Number),
      enableEmailAuth2FA: organisations.enableEmailAuth2FA,
      enableSSO: organisations.enableSSO,
      enableFormTranslations: organisations.enableFormTranslations,
    })
    .from(organisations)
    .where(where)
    .orderBy(asc(sql`lower(${organisations.name})`), asc(organisations.id));
  const yesNo = (value: boolean) => (value ? "Yes" : "No");
  const csv = toCsv([
    HEADER,
    ...rows.map((row) => [
      row.id,
      row.name,
      row.abn,
      row.slug,
      row.createdAt.toISOString(),
      yesNo(row.archived),
      String(row.openSeatNumber),
      String(row.activeUsers),
      yesNo(row.enableEmailAuth2FA),
      yesNo(row.enableSSO),
      yesNo(row.enableFormTranslations),
    ]),
  ]);
  await ctx.db.transaction((tx) =>
    recordActivity(tx, actor, { organisationId: null, objectType: "Organisation", action: "ExportOrganisations", metadata: { filter: search, count: rows.length } }),
  );
  return { fileName: ORGANISATIONS_EXPORT_FILE, contentType: "text/csv; charset=utf-8", body: new TextEncoder().encode(csv) };
}
