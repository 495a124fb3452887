import * as v from "valibot";
import { eq } from "drizzle-orm";
import type { Database } from "../../../../db/client.ts";
import { sessions, users } from "../../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../../context.ts";
import { forbidden, notFound, UserError } from "../../../lib/errors.ts";
import { changeEverywhere } from "../../../lib/invalidation.ts";
import { IdText, parseWith } from "../../../lib/validation.ts";
import { isUuid } from "../../../lib/ids.ts";
import { isSuperAdmin, requireStaff } from "../../access/policy.ts";
import { recordActivity } from "../../audit/service.ts";
import { ProofFields, proveOwnAccount, spendProof } from "../reauthentication.ts";
import { announceEnded, endOtherSessions } from "./attempts.ts";

export const SUPER_ADMIN_CANNOT_ENABLE = "Super Admins cannot enable Two-Factor Authentication.";
export const USER_NOT_FOUND = "User is not found";

/** Everything two-factor of an account, cleared: turning it off, or on afresh (a new authenticator is set up). */
const CLEARED = { twoFactorAuthenticationIsSet: false, twoFactorSecret: null, twoFactorLastStep: null, recoveryCodeHash: null } as const;

/**
 * Turns the signed-in user's own two-factor authentication on or off (Settings), inside the
 * caller's transaction. Turning it on owes setup: this session, and every other, must scan a new
 * key and give a passcode before it reaches anything again. Either way the user's other sessions
 * end (their consoles are told by `announceEnded` with the returned hashes), and the caller
 * announces `userIds: [actor.userId]` so no instance keeps a cached copy of this one as it was.
 */
export async function changeOwnTwoFactor(tx: Database, actor: StaffActor, account: { organisationId: string | null }, activated: boolean): Promise<string[]> {
  await tx
    .update(users)
    .set({ twoFactorAuthenticationActivated: activated, ...CLEARED })
    .where(eq(users.id, actor.userId));
  if (activated) await tx.update(sessions).set({ twoFactorPassed: false, twoFactorFailures: 0 }).where(eq(sessions.tokenHash, actor.sessionTokenHash));
  const ended = await endOtherSessions(tx, actor);
  await recordActivity(tx, actor, {
    organisationId: account.organisationId,
    objectType: "Self",
    objectId: actor.userId,
    action: activated ? "TwoFactorActivated" : "TwoFactorDeactivated",
  });
  return ended;
}

export const ChangeUserTwoFactorInput = v.object({ userID: IdText, activated: v.boolean(), ...ProofFields });

/**
 * A super admin turns another user's two-factor authentication off (a lost device and a lost
 * recovery code). Only off: turning it on is the account holder's own step, since only they can
 * scan the key (spec §6: 'Super Admins cannot enable Two-Factor Authentication.'). The user's
 * sessions all end. The super admin proves their own account first (decision 061): a stolen
 * session must not strip someone's second factor.
 */
export async function changeUserTwoFactor(ctx: Ctx, rawInput: unknown): Promise<true> {
  const actor = requireStaff(ctx);
  const input = parseWith(ChangeUserTwoFactorInput, rawInput);
  if (!isSuperAdmin(actor)) throw forbidden();
  if (!isUuid(input.userID)) throw notFound(USER_NOT_FOUND);
  const userId = input.userID.toLowerCase();
  // The user is found before the proof is judged: an unknown id is not found, whatever else is sent (decision 065).
  const [known] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  if (!known) throw notFound(USER_NOT_FOUND);
  const proof = await proveOwnAccount(ctx, actor, input);
  const ended = await changeEverywhere(ctx.db, ctx.services.invalidator, { userIds: [userId] }, async (tx) => {
    await spendProof(tx, proof);
    const [target] = await tx
      .select({ id: users.id, organisationId: users.organisationId, activated: users.twoFactorAuthenticationActivated })
      .from(users)
      .where(eq(users.id, userId))
      .for("update")
      .limit(1);
    if (!target) throw notFound(USER_NOT_FOUND);
    if (target.id === actor.userId) return changeOwnTwoFactor(tx, actor, target, input.activated);
    if (input.activated || !target.activated) throw new UserError("FORBIDDEN", SUPER_ADMIN_CANNOT_ENABLE);
    return turnOffUserTwoFactor(tx, actor, target);
  });
  await announceEnded(ctx, userId, ended);
  return true;
}

/**
 * Inside `tx`: another user's two-factor authentication off and every session of theirs ended (the
 * caller has checked it may, and announces `userIds`). Returns the ended hashes for `announceEnded`.
 */
export async function turnOffUserTwoFactor(tx: Database, actor: StaffActor, target: { id: string; organisationId: string | null }): Promise<string[]> {
  await tx.update(users).set({ twoFactorAuthenticationActivated: false, ...CLEARED }).where(eq(users.id, target.id));
  const deleted = await tx.delete(sessions).where(eq(sessions.userId, target.id)).returning({ tokenHash: sessions.tokenHash });
  await recordActivity(tx, actor, { organisationId: target.organisationId, objectType: "User", objectId: target.id, action: "TwoFactorDeactivated" });
  return deleted.map((row) => row.tokenHash);
}
