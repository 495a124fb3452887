import { and, count, desc, eq, ilike, or, type SQL } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { onboardInvites, organisations, roles } from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { UserError, forbidden } from "../../lib/errors.ts";
import { requireUuid } from "../../lib/ids.ts";
import { containsPattern, searchTextOf } from "../../lib/validation.ts";
import type { InviteStatus, ListFilter, RoleName } from "../../shared/enums.ts";
import type { Permission } from "../../shared/permissions.ts";
import { organisationScope, requireStaff } from "../access/policy.ts";
import { ORGANISATION_NOT_FOUND } from "../organisations/service.ts";
import { seatUsage, type SeatUsage } from "../organisations/seats.ts";
import { pageLimit, pageOffset } from "../users/service.ts";

/** Invites to join an organisation's staff, as the Invites page lists them (spec §2, §3 Invite). */

export const INVITE_NOT_FOUND = "Invite is not found";
/** Said to anyone whose role holds no invite permission (spec §6: 'Members cannot create invites'). */
export const MEMBERS_CANNOT_INVITE = "Members cannot create invites";

export interface InviteView {
  id: string;
  organisationId: string;
  firstName: string;
  lastName: string;
  email: string;
  status: InviteStatus;
  createdAt: Date;
  /** After this the link opens nothing and the invite holds no seat; Resend gives it a new week. */
  expiresAt: Date;
  archived: boolean;
  roleId: string;
  roleName: RoleName;
  roleLabel: string;
  organisation: { id: string; name: string; enableSSO: boolean };
}

const viewColumns = {
  id: onboardInvites.id,
  organisationId: onboardInvites.organisationId,
  firstName: onboardInvites.firstName,
  lastName: onboardInvites.lastName,
  email: onboardInvites.email,
  status: onboardInvites.status,
  createdAt: onboardInvites.createdAt,
  expiresAt: onboardInvites.expiresAt,
  archived: onboardInvites.archived,
  roleId: onboardInvites.roleId,
  roleName: roles.name,
  roleLabel: roles.label,
  organisation: { id: organisations.id, name: organisations.name, enableSSO: organisations.enableSSO },
};

const selectViews = (db: Database) =>
  db.select(viewColumns).from(onboardInvites).innerJoin(roles, eq(roles.id, onboardInvites.roleId)).innerJoin(organisations, eq(organisations.id, onboardInvites.organisationId));

export async function inviteView(db: Database, id: string): Promise<InviteView> {
  const [row] = await selectViews(db).where(eq(onboardInvites.id, id));
  if (!row) throw new UserError("NOT_FOUND", INVITE_NOT_FOUND);
  return row;
}

/** The staff actor, if their role holds the permission; anyone else is told members cannot invite. */
export function requireInvitePermission(ctx: Ctx, permission: Permission): StaffActor {
  const actor = requireStaff(ctx);
  if (!actor.permissions.has(permission)) throw forbidden(MEMBERS_CANNOT_INVITE);
  return actor;
}

export interface InviteListArgs {
  organisationID?: string | null;
  search?: string | null;
  filter?: ListFilter | null;
  limit?: number | null;
  offset?: number | null;
}

export interface InviteList {
  total: number;
  list: InviteView[];
  /** The organisation's seats when the list is one organisation's; a super admin's list of all has none. */
  seats: SeatUsage | null;
}

/** onboardInvites: the actor's organisation's invites, newest first (a super admin may name one, or see all). */
export async function listInvites(ctx: Ctx, args: InviteListArgs): Promise<InviteList> {
  const actor = requireInvitePermission(ctx, "OrganisationMemberInviteList");
  const requested = args.organisationID ? requireUuid(args.organisationID, ORGANISATION_NOT_FOUND) : null;
  const organisationId = organisationScope(actor, requested, ORGANISATION_NOT_FOUND);
  const filters: SQL[] = [];
  if (organisationId) filters.push(eq(onboardInvites.organisationId, organisationId));
  const filter = args.filter ?? "Active";
  if (filter !== "All") filters.push(eq(onboardInvites.archived, filter === "Archived"));
  const search = searchTextOf(args.search);
  if (search) {
    const pattern = containsPattern(search);
    filters.push(or(ilike(onboardInvites.email, pattern), ilike(onboardInvites.firstName, pattern), ilike(onboardInvites.lastName, pattern))!);
  }
  const where = filters.length ? and(...filters) : undefined;
  const seats = organisationId ? await seatUsage(ctx.db, organisationId) : null;
  if (organisationId && !seats) throw new UserError("NOT_FOUND", ORGANISATION_NOT_FOUND);
  const [total] = await ctx.db.select({ n: count() }).from(onboardInvites).where(where);
  const list = await selectViews(ctx.db)
    .where(where)
    .orderBy(desc(onboardInvites.createdAt), desc(onboardInvites.id))
    .limit(pageLimit(args.limit))
    .offset(pageOffset(args.offset));
  return { total: total?.n ?? 0, list, seats };
}
