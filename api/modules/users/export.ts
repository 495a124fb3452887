import { asc, eq, type SQL } from "drizzle-orm";
import { organisations, roles, users } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { forbidden } from "../../lib/errors.ts";
import { parseWith } from "../../lib/validation.ts";
import type { RoleName } from "../../shared/enums.ts";
import { roleLabel } from "../../shared/roles.ts";
import { isSuperAdmin, requirePermission } from "../access/policy.ts";
import { recordActivity } from "../audit/service.ts";
import { toCsv } from "../exports/csv.ts";
import type { ExportFile } from "../exports/service.ts";
import { UserExportInput, type UserExportFilter } from "./inputs.ts";

export const USERS_EXPORT_FILE = "users-export.csv";

const HEADER = ["ID", "First Name", "Last Name", "Username", "Email", "Role", "Organisation", "Verified", "Suspended", "Single Sign-On", "Two-Factor Authentication", "Created At"];

/** Active users are those not suspended, Archived the suspended ones (decision 034). */
const FILTERS: Record<UserExportFilter, SQL | undefined> = {
  All: undefined,
  Active: eq(users.suspended, false),
  Archived: eq(users.suspended, true),
};

const yesNo = (value: boolean) => (value ? "Yes" : "No");

/**
 * POST /api/admin/export/users (spec §7): every user as CSV, for super admins only (the Export
 * button is theirs, spec §2). Only columns a person reads: no password hash, two-factor secret,
 * recovery code or SSO identity is ever selected. Cells are neutralised for spreadsheets (csv.ts).
 */
export async function exportUsers(ctx: Ctx, rawInput: unknown): Promise<ExportFile> {
  const actor = requirePermission(ctx, "UserList");
  if (!isSuperAdmin(actor)) throw forbidden();
  const input = parseWith(UserExportInput, rawInput);
  const rows = await ctx.db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      email: users.email,
      role: roles.name,
      organisation: organisations.name,
      verified: users.verified,
      suspended: users.suspended,
      isSSO: users.isSSO,
      twoFactor: users.twoFactorAuthenticationActivated,
      createdAt: users.createdAt,
    })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(organisations, eq(organisations.id, users.organisationId))
    .where(FILTERS[input.search])
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.email));
  const body = toCsv([
    HEADER,
    ...rows.map((row) => [
      row.id,
      row.firstName,
      row.lastName,
      row.username ?? "",
      row.email,
      roleLabel(row.role as RoleName),
      row.organisation ?? "",
      yesNo(row.verified),
      yesNo(row.suspended),
      yesNo(row.isSSO),
      yesNo(row.twoFactor),
      row.createdAt.toISOString(),
    ]),
  ]);
  await ctx.db.transaction((tx) =>
    recordActivity(tx, actor, { organisationId: null, objectType: "User", action: "ExportCsv", metadata: { count: rows.length, filter: input.search } }),
  );
  return { fileName: USERS_EXPORT_FILE, contentType: "text/csv; charset=utf-8", body: new TextEncoder().encode(body) as Uint8Array<ArrayBuffer> };
}
