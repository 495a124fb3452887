import { and, eq, inArray, sql } from "drizzle-orm";
import { blobs, guestMemberships, organisations, reportSubmissionAssignees, reportSubmissions, userActivities, users } from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import type { Permission } from "../../shared/permissions.ts";
import { outranks } from "../../shared/roles.ts";
import { isSuperAdmin, mutate } from "../access/policy.ts";
import { DELETED_USER_KEY } from "../audit/metadata.ts";
import { recordActivity } from "../audit/service.ts";
import { removeBlobBytes } from "../files/stored-blob.ts";
import { claimSeat } from "../organisations/seats.ts";
import { deleteSessionsOf, lockReachableUser, lockUser, OUTRANKED, requireOutranks, tellConsolesOf, USER_NOT_FOUND, type TargetUser } from "./rules.ts";
import type { Database } from "../../../db/client.ts";
import { forbidden } from "../../lib/errors.ts";

export const ALREADY_SUSPENDED = "User is already suspended.";
export const NOT_SUSPENDED = "User is not suspended.";
export const NOT_A_GUEST_HERE = "User is not a guest member of this organisation.";

/**
 * One change to another user that ends (or may end) their access: permission, reach and rank first,
 * then the change and its audit entry in one transaction that announces the user to every instance,
 * so no cached session outlives it. Their consoles are told after the commit.
 */
async function changeAccess(ctx: Ctx, permission: Permission, rawId: unknown, work: (tx: Database, actor: StaffActor, target: TargetUser) => Promise<void>): Promise<TargetUser> {
  const { target, applied } = await mutate(ctx, permission, async (tx, actor) => {
    const target = await lockReachableUser(tx, actor, rawId);
    requireOutranks(actor, target);
    await work(tx, actor, target);
    return { target, applied: await ctx.services.invalidator.announce(tx, { userIds: [target.id] }) };
  });
  await applied();
  await tellConsolesOf(ctx, target.id);
  return target;
}

const audit = (tx: Database, actor: StaffActor, target: TargetUser, action: string, metadata: Record<string, unknown> = {}) =>
  recordActivity(tx, actor, { organisationId: target.organisationId, objectType: "User", objectId: target.id, action, metadata: { first_name: target.firstName, last_name: target.lastName, ...metadata } });

/** userSuspend: the user's sessions end at once on every instance, and sign-in refuses them; their seat is freed. */
export async function suspendUser(ctx: Ctx, rawId: unknown): Promise<string> {
  const target = await changeAccess(ctx, "UserArchive", rawId, async (tx, actor, target) => {
    if (target.suspended) throw new UserError("CONFLICT", ALREADY_SUSPENDED);
    await tx.update(users).set({ suspended: true }).where(eq(users.id, target.id));
    await deleteSessionsOf(tx, target.id);
    await audit(tx, actor, target, "Suspend");
  });
  return target.id;
}

/** userUnsuspend: takes a seat again, so it needs a free one (seats.ts). */
export async function unsuspendUser(ctx: Ctx, rawId: unknown): Promise<string> {
  const { id } = await mutate(ctx, "UserUnarchive", async (tx, actor) => {
    const target = await lockReachableUser(tx, actor, rawId);
    requireOutranks(actor, target);
    if (!target.suspended) throw new UserError("CONFLICT", NOT_SUSPENDED);
    if (target.organisationId) await claimSeat(tx, target.organisationId);
    await tx.update(users).set({ suspended: false }).where(eq(users.id, target.id));
    await audit(tx, actor, target, "Unsuspend");
    return target;
  });
  return id;
}

/**
 * userDelete: permanent (decision 034). Their notes, messages, form builds and audit entries stay,
 * with no author (the foreign keys set it null), and the console shows 'Deleted user' for them.
 * Their sessions, tokens, team places and guest memberships go with the row; so does their picture.
 */
export async function deleteUser(ctx: Ctx, rawId: unknown): Promise<true> {
  let avatarKey: string | null = null;
  await changeAccess(ctx, "UserArchive", rawId, async (tx, actor, target) => {
    await audit(tx, actor, target, "Delete", { email: target.email });
    // Their entries lose their author with the row; the marker lets the log say who it was not.
    await tx
      .update(userActivities)
      .set({ metadata: sql`${userActivities.metadata} || jsonb_build_object(${sql.raw(`'${DELETED_USER_KEY}'`)}, true)` })
      .where(eq(userActivities.userId, target.id));
    await tx.delete(users).where(eq(users.id, target.id));
    if (target.avatarBlobId) {
      const [removed] = await tx.delete(blobs).where(eq(blobs.id, target.avatarBlobId)).returning({ storageKey: blobs.storageKey });
      avatarKey = removed?.storageKey ?? null;
    }
  });
  if (avatarKey) await removeBlobBytes(ctx, avatarKey, "a deleted user's avatar");
  return true;
}

/**
 * userKick (spec §7): a guest member of another organisation leaves this one: their membership is
 * archived and they leave the team of every report of it. Organisation admins and owners may, for
 * their own organisation (spec §6); a super admin for any.
 */
export async function kickUser(ctx: Ctx, rawId: unknown, rawOrganisationId: unknown): Promise<true> {
  const notFound = () => new UserError("NOT_FOUND", USER_NOT_FOUND);
  const { applied } = await mutate(ctx, "UserArchive", async (tx, actor) => {
    if (!isUuid(rawOrganisationId)) throw notFound();
    const organisationId = rawOrganisationId.toLowerCase();
    if (!isSuperAdmin(actor) && organisationId !== actor.organisationId) throw notFound();
    // An organisation that does not exist is refused as one out of reach is, before anything is said of the user (decision 065).
    const [organisation] = await tx.select({ id: organisations.id }).from(organisations).where(eq(organisations.id, organisationId));
    if (!organisation) throw notFound();
    const target = await lockUser(tx, rawId);
    if (!target) throw notFound();
    const [membership] = await tx
      .select({ archived: guestMemberships.archived })
      .from(guestMemberships)
      .where(and(eq(guestMemberships.userId, target.id), eq(guestMemberships.organisationId, organisationId)))
      .for("update");
    // Someone with no live membership here is not this organisation's to see.
    if (!membership || membership.archived || target.organisationId === organisationId) {
      if (canSeeAnyway(actor, target)) throw new UserError("CONFLICT", NOT_A_GUEST_HERE);
      throw notFound();
    }
    if (target.id === actor.userId || !outranks(actor.role, target.role)) throw forbidden(OUTRANKED);
    await tx
      .update(guestMemberships)
      .set({ archived: true, archivedAt: new Date() })
      .where(and(eq(guestMemberships.userId, target.id), eq(guestMemberships.organisationId, organisationId)));
    await tx
      .delete(reportSubmissionAssignees)
      .where(
        and(
          eq(reportSubmissionAssignees.userId, target.id),
          inArray(reportSubmissionAssignees.submissionId, tx.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.organisationId, organisationId))),
        ),
      );
    await recordActivity(tx, actor, {
      organisationId,
      objectType: "User",
      objectId: target.id,
      action: "Kick",
      metadata: { first_name: target.firstName, last_name: target.lastName },
    });
    return { applied: await ctx.services.invalidator.announce(tx, { userIds: [target.id] }) };
  });
  await applied();
  return true;
}

const canSeeAnyway = (actor: StaffActor, target: TargetUser) => isSuperAdmin(actor) || (target.organisationId !== null && target.organisationId === actor.organisationId);
