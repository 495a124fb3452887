import type { Database } from "../../../db/client.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { UserError, forbidden } from "../../lib/errors.ts";
import type { Permission } from "../../shared/permissions.ts";

/**
 * The checks every service verb starts with. Coarse checks also sit on GraphQL fields
 * (scope-auth); these run again inside the verb so REST handlers and future callers are held
 * to the same rules.
 */

export function requireStaff(ctx: Ctx): StaffActor {
  if (ctx.actor.kind !== "staff") throw new UserError("UNAUTHENTICATED", "You must login to view this page");
  return ctx.actor;
}

export function requirePermission(ctx: Ctx, permission: Permission): StaffActor {
  const actor = requireStaff(ctx);
  if (!actor.permissions.has(permission)) throw forbidden();
  return actor;
}

export const isSuperAdmin = (actor: StaffActor) => actor.role === "SUPER_ADMIN";

/**
 * The organisation a staff request works in. Super admins may name any (or none, meaning all);
 * everyone else works in their own, and naming another is refused as if it did not exist, so ids
 * of other tenants cannot be probed.
 */
export function organisationScope(actor: StaffActor, requested: string | null | undefined, notFoundMessage: string): string | null {
  if (isSuperAdmin(actor)) return requested ?? null;
  if (!actor.organisationId) throw forbidden();
  if (requested && requested !== actor.organisationId) throw new UserError("NOT_FOUND", notFoundMessage);
  return actor.organisationId;
}

/** True when the staff actor may see rows of this organisation. */
export function canReachOrganisation(actor: StaffActor, organisationId: string | null): boolean {
  return isSuperAdmin(actor) || (organisationId !== null && organisationId === actor.organisationId);
}

/**
 * Authorisation before validation (decision 065): permission, then the objects the input names,
 * found within the actor's reach (each finder answers not found), and only then the rest of the
 * input judged. Another organisation's id is so answered exactly as an id that names nothing,
 * whatever else the input holds. The verb finds its objects again inside its transaction, locked
 * there, so that slow parsing (hashing, images) never runs under a lock.
 */
export async function parseOnceFound<Input>(
  ctx: Ctx,
  permission: Permission,
  find: (db: Database, actor: StaffActor) => Promise<unknown>,
  parse: () => Input | Promise<Input>,
): Promise<Input> {
  const actor = requirePermission(ctx, permission);
  await find(ctx.db, actor);
  return parse();
}

/**
 * Runs a change: permission first, then one transaction that holds the change and its audit
 * entry together. `work` gets the transaction and the acting staff member.
 */
export async function mutate<T>(ctx: Ctx, permission: Permission, work: (tx: Database, actor: StaffActor) => Promise<T>): Promise<T> {
  const actor = requirePermission(ctx, permission);
  return ctx.db.transaction((tx) => work(tx, actor));
}
