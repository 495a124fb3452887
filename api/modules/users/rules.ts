import { eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { roles, sessions, users } from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { badInput, forbidden, UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { logError } from "../../lib/log.ts";
import type { RoleName } from "../../shared/enums.ts";
import { outranks } from "../../shared/roles.ts";
import { canReachOrganisation } from "../access/policy.ts";
import { userDisconnectTopic, type UserDisconnectEvent } from "../auth/events.ts";

/**
 * The rules every change to another user passes (spec §6): the actor's role must outrank the
 * target's, the target must be in the actor's organisation unless the actor is a super admin, and
 * nobody changes their own role. A user the actor may not reach is "not found", so ids of other
 * organisations cannot be probed.
 */

export const USER_NOT_FOUND = "User is not found";
export const OUTRANKED = "You can only manage users whose role ranks below yours.";
export const NOT_YOURSELF = "You cannot do this to your own account.";
export const OWN_ROLE = "You cannot change your own role.";
export const SUSPENDED_NOT_EDITABLE = "Contact admin to unsuspend.";
export const ROLE_NOT_FOUND = "Role is not found";

export interface TargetUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  organisationId: string | null;
  suspended: boolean;
  isSSO: boolean;
  avatarBlobId: string | null;
  twoFactorAuthenticationActivated: boolean;
  role: RoleName;
}

const TARGET_COLUMNS = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  organisationId: users.organisationId,
  suspended: users.suspended,
  isSSO: users.isSSO,
  avatarBlobId: users.avatarBlobId,
  twoFactorAuthenticationActivated: users.twoFactorAuthenticationActivated,
  role: roles.name,
};

async function userRow(db: Database, rawId: unknown, forUpdate: boolean): Promise<TargetUser | null> {
  if (!isUuid(rawId)) return null;
  const query = db.select(TARGET_COLUMNS).from(users).innerJoin(roles, eq(roles.id, users.roleId)).where(eq(users.id, rawId.toLowerCase()));
  const [row] = forUpdate ? await query.for("update", { of: users }).limit(1) : await query.limit(1);
  return row ?? null;
}

/** The user row, locked for the rest of the transaction; null when it does not exist. */
export const lockUser = (tx: Database, rawId: unknown) => userRow(tx, rawId, true);

/** A user of the actor's organisation (any, for a super admin), locked when asked; anyone else is not found. */
export async function reachableUser(db: Database, actor: StaffActor, rawId: unknown, forUpdate = false): Promise<TargetUser> {
  const target = await userRow(db, rawId, forUpdate);
  if (!target || (target.id !== actor.userId && !canReachOrganisation(actor, target.organisationId))) throw new UserError("NOT_FOUND", USER_NOT_FOUND);
  return target;
}

export const lockReachableUser = (tx: Database, actor: StaffActor, rawId: unknown) => reachableUser(tx, actor, rawId, true);

/** A user the actor may edit: found within reach, and themselves or ranked below (decision 065: before the input is judged). */
export async function editableUser(db: Database, actor: StaffActor, rawId: unknown): Promise<TargetUser> {
  const target = await reachableUser(db, actor, rawId);
  if (target.id !== actor.userId) requireOutranks(actor, target);
  return target;
}

/** Acting on someone else: they must rank below the actor (which also rules out oneself). */
export function requireOutranks(actor: StaffActor, target: TargetUser): void {
  if (target.id === actor.userId) throw forbidden(NOT_YOURSELF);
  if (!outranks(actor.role, target.role)) throw forbidden(OUTRANKED);
}

/** A role by its id, as a field error when there is none. */
export async function roleById(tx: Database, rawId: unknown): Promise<{ id: string; name: RoleName }> {
  const invalid = () => badInput(ROLE_NOT_FOUND, [{ field: "roleID", message: ROLE_NOT_FOUND }]);
  if (!isUuid(rawId)) throw invalid();
  const [role] = await tx.select({ id: roles.id, name: roles.name }).from(roles).where(eq(roles.id, rawId.toLowerCase())).limit(1);
  if (!role) throw invalid();
  return role;
}

/**
 * Who may be given a role: anyone ranked below the actor; a super admin may also make super
 * admins (decision 034), since otherwise only the command line could.
 */
export function mayGiveRole(actor: StaffActor, role: RoleName): boolean {
  return actor.role === "SUPER_ADMIN" || outranks(actor.role, role);
}

/** Ends every session of the user inside `tx` (the caller announces `userIds` so caches drop them too). */
export async function deleteSessionsOf(tx: Database, userId: string): Promise<void> {
  await tx.delete(sessions).where(eq(sessions.userId, userId));
}

/** After commit: every open console of the user hears that its session is gone, and clears at once. */
export async function tellConsolesOf(ctx: Ctx, userId: string): Promise<void> {
  await ctx.services.pubsub
    .publish(userDisconnectTopic(userId), {} satisfies UserDisconnectEvent)
    .catch((error: unknown) => logError("Could not announce the end of a user's sessions", error));
}
