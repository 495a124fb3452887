import { and, eq, ne, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { onboardInvites, organisations, roles, users } from "../../../db/schema/index.ts";
import type { StaffActor } from "../../context.ts";
import { UserError, badInput, forbidden } from "../../lib/errors.ts";
import { isUuid, requireUuid } from "../../lib/ids.ts";
import type { RoleName } from "../../shared/enums.ts";
import { ORGANISATION_UNAVAILABLE } from "../../shared/messages.ts";
import { outranks } from "../../shared/roles.ts";
import { canReachOrganisation, organisationScope } from "../access/policy.ts";
import { ORGANISATION_NOT_FOUND } from "../organisations/service.ts";
import { INVITE_NOT_FOUND } from "./views.ts";

/** The checks an invite change makes inside its transaction (docs/decisions/035-onboard-invites.md). */

export const INVALID_ROLE = "Invalid role";
export const ROLE_TOO_HIGH = "You can only invite users to a role below your own.";
export const INVITE_ROLE_TOO_HIGH = "You can only manage invites for roles below your own.";
export const EMAIL_IS_A_USER = "A user with this email address already exists.";
export const duplicateInvite = (email: string) => `An invite for "${email}" is already open in this organisation. Resend it from the list instead.`;

/** Guests join through report invites and super admins belong to no organisation: neither is an organisation seat. */
const NOT_INVITABLE: readonly RoleName[] = ["SUPER_ADMIN", "GUEST_MEMBER"];

/**
 * The organisation the invite goes to, locked for the rest of the transaction so concurrent
 * invites into it (and claimSeat's count) queue behind each other. A super admin names it; an
 * owner's or admin's is their own.
 */
export async function lockInvitingOrganisation(tx: Database, actor: StaffActor, rawOrganisationID: unknown): Promise<{ id: string; name: string }> {
  const requested = rawOrganisationID ? requireUuid(rawOrganisationID, ORGANISATION_NOT_FOUND) : null;
  const organisationId = organisationScope(actor, requested, ORGANISATION_NOT_FOUND);
  // A super admin works inside one organisation to invite to it.
  if (!organisationId) throw badInput("Required", [{ field: "organisationID", message: "Required" }]);
  return lockOrganisation(tx, organisationId);
}

export async function lockOrganisation(tx: Database, organisationId: string): Promise<{ id: string; name: string }> {
  const [organisation] = await tx
    .select({ id: organisations.id, name: organisations.name, archived: organisations.archived })
    .from(organisations)
    .where(eq(organisations.id, organisationId))
    .for("update");
  if (!organisation) throw new UserError("NOT_FOUND", ORGANISATION_NOT_FOUND);
  if (organisation.archived) throw new UserError("CONFLICT", ORGANISATION_UNAVAILABLE);
  return organisation;
}

/** A role the actor may hand out: strictly below their own, and a staff role of an organisation. */
export async function invitableRole(tx: Database, actor: StaffActor, rawRoleId: string): Promise<{ id: string; name: RoleName }> {
  const [role] = isUuid(rawRoleId) ? await tx.select({ id: roles.id, name: roles.name }).from(roles).where(eq(roles.id, rawRoleId.toLowerCase())) : [];
  if (!role || NOT_INVITABLE.includes(role.name)) throw badInput(INVALID_ROLE, [{ field: "roleID", message: INVALID_ROLE }]);
  if (!outranks(actor.role, role.name)) throw forbidden(ROLE_TOO_HIGH);
  return role;
}

/** Someone who already has an account signs in with it; an invite could only fail at sign-up. */
export async function requireNoAccount(tx: Database, email: string): Promise<void> {
  const [user] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1);
  if (user) throw new UserError("CONFLICT", EMAIL_IS_A_USER);
}

/**
 * One open invite per address and organisation: a second would hold a second seat for one person.
 * Expired ones count (Resend revives them). Runs under the organisation's lock, so two concurrent
 * invites for one address cannot both pass.
 */
export async function requireNoOpenInvite(tx: Database, organisationId: string, email: string, exceptId?: string): Promise<void> {
  const [open] = await tx
    .select({ id: onboardInvites.id })
    .from(onboardInvites)
    .where(
      and(
        eq(onboardInvites.organisationId, organisationId),
        sql`lower(${onboardInvites.email}) = ${email.toLowerCase()}`,
        eq(onboardInvites.status, "Invited"),
        eq(onboardInvites.archived, false),
        ...(exceptId ? [ne(onboardInvites.id, exceptId)] : []),
      ),
    )
    .limit(1);
  if (open) throw new UserError("CONFLICT", duplicateInvite(email));
}

/**
 * The invite, locked, with its organisation locked before it (the order invite creation and
 * claimSeat take, so no two invite changes can wait on each other), if the actor reaches its
 * organisation and outranks its role; anything else is not found or refused.
 */
export async function lockedInvite(tx: Database, actor: StaffActor, rawId: unknown) {
  const id = isUuid(rawId) ? rawId.toLowerCase() : null;
  const [found] = id ? await tx.select({ organisationId: onboardInvites.organisationId }).from(onboardInvites).where(eq(onboardInvites.id, id)) : [];
  if (!id || !found || !canReachOrganisation(actor, found.organisationId)) throw new UserError("NOT_FOUND", INVITE_NOT_FOUND);
  const [organisation] = await tx
    .select({ id: organisations.id, name: organisations.name, archived: organisations.archived })
    .from(organisations)
    .where(eq(organisations.id, found.organisationId))
    .for("update");
  const [invite] = await tx
    .select({
      id: onboardInvites.id,
      organisationId: onboardInvites.organisationId,
      email: onboardInvites.email,
      firstName: onboardInvites.firstName,
      lastName: onboardInvites.lastName,
      status: onboardInvites.status,
      archived: onboardInvites.archived,
      expiresAt: onboardInvites.expiresAt,
      roleName: roles.name,
    })
    .from(onboardInvites)
    .innerJoin(roles, eq(roles.id, onboardInvites.roleId))
    .where(eq(onboardInvites.id, id))
    .for("update", { of: onboardInvites });
  if (!invite || !organisation) throw new UserError("NOT_FOUND", INVITE_NOT_FOUND);
  if (!outranks(actor.role, invite.roleName)) throw forbidden(INVITE_ROLE_TOO_HIGH);
  return { ...invite, organisation };
}

export type LockedInvite = Awaited<ReturnType<typeof lockedInvite>>;
