import { eq } from "drizzle-orm";
import { blobs, users } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { badInput, forbidden, UserError } from "../../lib/errors.ts";
import { hashPassword } from "../../lib/passwords.ts";
import { parseWith } from "../../lib/validation.ts";
import { isSuperAdmin, mutate, requirePermission } from "../access/policy.ts";
import { voidSignInLinks } from "../account-access/mailed-tokens.ts";
import { mailEmailChange, requestEmailChange, type RequestedEmailChange } from "../account-access/email-change.ts";
import { CHANGED_MEANWHILE, OWN_PROOF_FIELDS, proveOwnAccountUnder, spendProof, type CheckedProof } from "../auth/reauthentication.ts";
import { recordActivity } from "../audit/service.ts";
import { announceEnded } from "../auth/two-factor/attempts.ts";
import { changeOwnTwoFactor, SUPER_ADMIN_CANNOT_ENABLE, turnOffUserTwoFactor } from "../auth/two-factor/switch.ts";
import { INVALID_FILE } from "../files/chat-image.ts";
import { removeBlobBytes } from "../files/stored-blob.ts";
import { SSO_EMAIL_FIXED } from "../profile/details.ts";
import { REMOVE_AVATAR } from "../profile/inputs.ts";
import { SSO_HAS_NO_PASSWORD } from "../profile/password.ts";
import { UserUpdateInput, type UserUpdate } from "./inputs.ts";
import { deleteSessionsOf, editableUser, lockReachableUser, mayGiveRole, OUTRANKED, OWN_ROLE, requireOutranks, roleById, SUSPENDED_NOT_EDITABLE, tellConsolesOf, type TargetUser } from "./rules.ts";

export const OWN_PASSWORD_IN_SETTINGS = "Change your own password in Settings, where your old password is asked for.";
export const NO_MOVE_BETWEEN_ORGANISATIONS = "A user cannot be moved to another organisation.";

/** Fields that change how an account signs in or where its mail goes: the actor proves their own account first (decision 061). */
const SIGN_IN_FIELDS = ["email", "password", "two_factor"];
const touchesSignIn = (fields: string[]) => fields.some((field) => SIGN_IN_FIELDS.includes(field));

export interface UserUpdated {
  id: string;
  /** Only the password changed: the console says "User's password has been changed". */
  passwordOnly: boolean;
}

/** The fields whose change is asked for, with the checks each needs. */
function changedFields(target: TargetUser, input: UserUpdate, roleName: string | null): string[] {
  const fields: string[] = [];
  if (input.username !== undefined) fields.push("username");
  if (input.firstName && input.firstName !== target.firstName) fields.push("first_name");
  if (input.lastName && input.lastName !== target.lastName) fields.push("last_name");
  if (input.email && input.email !== target.email.toLowerCase()) fields.push("email");
  if (input.password) fields.push("password");
  if (roleName && roleName !== target.role) fields.push("role");
  if (input.twoFactorAuthenticationActivated != null && input.twoFactorAuthenticationActivated !== target.twoFactorAuthenticationActivated) fields.push("two_factor");
  if (input.avatarBlobID === REMOVE_AVATAR && target.avatarBlobId) fields.push("avatar");
  return fields;
}

/**
 * userUpdate (spec §7): another user's profile, role, password or two-factor (and one's own
 * profile, never one's own role). A new password or a role change reaches every instance's cached
 * sessions before this answers; a new password ends the user's sessions everywhere.
 */
export async function updateUser(ctx: Ctx, rawId: unknown, rawInput: unknown, now = new Date()): Promise<UserUpdated> {
  const actor = requirePermission(ctx, "UserUpdate");
  // The user is found (and outranked) before the input is judged (decision 065); this first look also
  // says whether proof is needed (decision 061). The change below reads the row again under lock.
  const found = await editableUser(ctx.db, actor, rawId);
  const input = parseWith(UserUpdateInput, rawInput);
  const asked = changedFields(found, input, null);
  const proof: CheckedProof | null = touchesSignIn(asked)
    ? await proveOwnAccountUnder(ctx, actor, { password: input.ownPassword, passcode: input.ownPasscode, recoveryCode: input.ownRecoveryCode }, OWN_PROOF_FIELDS, now)
    : null;
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  let emailChange: RequestedEmailChange | null = null;
  let endedSessions: string[] = [];
  let removedStorageKey: string | null = null;
  const result = await mutate(ctx, "UserUpdate", async (tx, actor) => {
    const target = await lockReachableUser(tx, actor, rawId);
    const self = target.id === actor.userId;
    if (!self) requireOutranks(actor, target);
    if (target.suspended) throw new UserError("CONFLICT", SUSPENDED_NOT_EDITABLE);
    if (input.organisationID && input.organisationID.toLowerCase() !== target.organisationId) throw badInput(NO_MOVE_BETWEEN_ORGANISATIONS, [{ field: "organisationID", message: NO_MOVE_BETWEEN_ORGANISATIONS }]);
    const role = input.roleID ? await roleById(tx, input.roleID) : null;
    const fields = changedFields(target, input, role?.name ?? null);
    if (touchesSignIn(fields) && !proof) throw new UserError("CONFLICT", CHANGED_MEANWHILE);
    if (proof) await spendProof(tx, proof);
    if (fields.includes("role")) {
      if (self) throw forbidden(OWN_ROLE);
      // A super admin has no organisation, so nobody becomes one by an edit; nor is anyone made one's equal.
      if (role!.name === "SUPER_ADMIN" || target.role === "SUPER_ADMIN" || !mayGiveRole(actor, role!.name)) throw forbidden(OUTRANKED);
    }
    if (fields.includes("password")) {
      if (self) throw forbidden(OWN_PASSWORD_IN_SETTINGS);
      if (target.isSSO) throw badInput(SSO_HAS_NO_PASSWORD, [{ field: "password", message: SSO_HAS_NO_PASSWORD }]);
    }
    if (fields.includes("email")) {
      if (target.isSSO) throw badInput(SSO_EMAIL_FIXED, [{ field: "email", message: SSO_EMAIL_FIXED }]);
    }
    // Only '-' or the current picture's id: a new picture arrives through userUpdateAvatar.
    if (input.avatarBlobID && input.avatarBlobID !== REMOVE_AVATAR && input.avatarBlobID.toLowerCase() !== target.avatarBlobId) {
      throw badInput(INVALID_FILE, [{ field: "avatarBlobID", message: INVALID_FILE }]);
    }
    if (fields.includes("two_factor")) {
      const activate = input.twoFactorAuthenticationActivated!;
      if (self) endedSessions = await changeOwnTwoFactor(tx, actor, target, activate);
      else if (!isSuperAdmin(actor)) throw forbidden();
      else if (activate) throw new UserError("FORBIDDEN", SUPER_ADMIN_CANNOT_ENABLE);
      else endedSessions = await turnOffUserTwoFactor(tx, actor, target);
    }

    const changes = {
      ...(input.username !== undefined ? { username: input.username || null } : {}),
      ...(fields.includes("first_name") ? { firstName: input.firstName! } : {}),
      ...(fields.includes("last_name") ? { lastName: input.lastName! } : {}),
      ...(fields.includes("role") ? { roleId: role!.id } : {}),
      ...(passwordHash ? { passwordHash, failedLoginCount: 0, lastFailedLoginAt: null } : {}),
      ...(fields.includes("avatar") ? { avatarBlobId: null } : {}),
    };
    if (Object.keys(changes).length > 0) await tx.update(users).set(changes).where(eq(users.id, target.id));
    if (fields.includes("avatar")) {
      const [removed] = await tx.delete(blobs).where(eq(blobs.id, target.avatarBlobId!)).returning({ storageKey: blobs.storageKey });
      removedStorageKey = removed?.storageKey ?? null;
    }
    if (passwordHash) {
      // An admin's new password ends the user's sessions everywhere, and links mailed to them stop working.
      await deleteSessionsOf(tx, target.id);
      await voidSignInLinks(tx, target.id);
    }
    if (fields.includes("email")) {
      // The address changes only when the link mailed to it is opened; the old one is told and can cancel.
      emailChange = await requestEmailChange(tx, target, input.email!, now);
      await recordActivity(tx, actor, { organisationId: target.organisationId, objectType: self ? "Self" : "User", objectId: target.id, action: "EmailChangeRequested" });
    }
    await recordActivity(tx, actor, {
      organisationId: target.organisationId,
      objectType: self ? "Self" : "User",
      objectId: target.id,
      action: "Update",
      metadata: { first_name: input.firstName ?? target.firstName, last_name: input.lastName ?? target.lastName, fields, ...(role ? { role: role.name } : {}) },
    });
    // Sessions carry the role and whether 2FA is owed: every cached copy is read again.
    const reachesSessions = ["password", "role", "two_factor"].some((field) => fields.includes(field));
    const applied = reachesSessions ? await ctx.services.invalidator.announce(tx, { userIds: [target.id] }) : null;
    return { updated: { id: target.id, passwordOnly: fields.length === 1 && fields[0] === "password" }, fields, applied };
  });
  await result.applied?.();
  const change = emailChange as RequestedEmailChange | null;
  if (change) await mailEmailChange(ctx.services, change);
  if (result.fields.includes("password")) await tellConsolesOf(ctx, result.updated.id);
  else await announceEnded(ctx, result.updated.id, endedSessions);
  if (removedStorageKey) await removeBlobBytes(ctx, removedStorageKey, "a removed avatar");
  return result.updated;
}
