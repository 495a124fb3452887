import { eq } from "drizzle-orm";
import { blobs, users } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { badInput, UserError } from "../../lib/errors.ts";
import { parseWith } from "../../lib/validation.ts";
import { requireStaff } from "../access/policy.ts";
import { recordActivity } from "../audit/service.ts";
import { INVALID_FILE } from "../files/chat-image.ts";
import { removeBlobBytes } from "../files/stored-blob.ts";
import { ChangeDetailsInput, REMOVE_AVATAR } from "./inputs.ts";
import { lockOwnAccount } from "./own-account.ts";
import { mailEmailChange, requestEmailChange, type RequestedEmailChange } from "../account-access/email-change.ts";
import { CHANGED_MEANWHILE, proveOwnAccount, spendProof } from "../auth/reauthentication.ts";
import { changeOwnTwoFactor } from "../auth/two-factor/switch.ts";
import { announceEnded } from "../auth/two-factor/attempts.ts";

export const SSO_EMAIL_FIXED = "The email address of a single sign-on account is managed by its Microsoft account and cannot be changed here.";

/** What of a change needs proof of the account (decision 061): a new address, or two-factor on or off. */
function sensitiveParts(account: { email: string; twoFactorAuthenticationActivated: boolean }, input: { email?: string; twoFactorAuthenticationActivated?: boolean }) {
  return {
    emailChanged: input.email !== undefined && input.email !== account.email.toLowerCase(),
    twoFactorChanged: input.twoFactorAuthenticationActivated !== undefined && input.twoFactorAuthenticationActivated !== account.twoFactorAuthenticationActivated,
  };
}

/**
 * The signed-in user changes their own name, email or avatar (spec §7, changeDetails). Names and the
 * picture need nothing more than the session. A new address or two-factor on or off first needs
 * proof of the account (password, and passcode or recovery code while two-factor is on), and a new
 * address takes effect only once the link mailed to it is opened (decision 061); the old address is
 * told and can cancel. Two-factor setup then happens on its own screens (decision 030).
 */
export async function changeDetails(ctx: Ctx, rawInput: unknown, now = new Date()): Promise<string> {
  const actor = requireStaff(ctx);
  const input = parseWith(ChangeDetailsInput, rawInput);
  let removedStorageKey: string | null = null;
  let cachedSessionsEnded: (() => Promise<void>) | null = null;
  let emailChange: RequestedEmailChange | null = null;
  let endedSessions: string[] = [];
  const [current] = await ctx.db.select({ email: users.email, isSSO: users.isSSO, twoFactorAuthenticationActivated: users.twoFactorAuthenticationActivated }).from(users).where(eq(users.id, actor.userId));
  if (!current) throw new UserError("UNAUTHENTICATED", "You must login to view this page");
  const asked = sensitiveParts(current, input);
  if (asked.emailChanged && current.isSSO) throw badInput(SSO_EMAIL_FIXED, [{ field: "email", message: SSO_EMAIL_FIXED }]);
  const proof = asked.emailChanged || asked.twoFactorChanged ? await proveOwnAccount(ctx, actor, input, now) : null;
  await ctx.db.transaction(async (tx) => {
    const account = await lockOwnAccount(tx, actor);
    const { emailChanged, twoFactorChanged } = sensitiveParts(account, input);
    // Another tab changed the address or two-factor between the proof and here: what was proven no longer matches.
    if ((emailChanged || twoFactorChanged) && !proof) throw new UserError("CONFLICT", CHANGED_MEANWHILE);
    if (proof) await spendProof(tx, proof);
    const avatar = input.avatarBlobID;
    const removeAvatar = avatar === REMOVE_AVATAR && account.avatarBlobId !== null;
    // Only '-' or the current picture's id: a new picture arrives through changeAvatar, never by naming some other blob.
    if (avatar !== undefined && avatar !== REMOVE_AVATAR && avatar.toLowerCase() !== account.avatarBlobId) {
      throw badInput(INVALID_FILE, [{ field: "avatarBlobID", message: INVALID_FILE }]);
    }

    const firstName = input.firstName ?? account.firstName;
    const lastName = input.lastName ?? account.lastName;
    await tx
      .update(users)
      .set({
        firstName,
        lastName,
        ...(removeAvatar ? { avatarBlobId: null } : {}),
      })
      .where(eq(users.id, account.id));
    if (removeAvatar) {
      const [removed] = await tx.delete(blobs).where(eq(blobs.id, account.avatarBlobId!)).returning({ storageKey: blobs.storageKey });
      removedStorageKey = removed?.storageKey ?? null;
    }
    await recordActivity(tx, actor, {
      organisationId: account.organisationId,
      objectType: "Self",
      objectId: account.id,
      action: "ChangeDetails",
      metadata: { first_name: firstName, last_name: lastName, email_change_requested: emailChanged, avatar_removed: removeAvatar },
    });
    if (emailChanged) {
      // Nothing changes for sign-in or mail until the new address's owner opens the link.
      emailChange = await requestEmailChange(tx, account, input.email!, now);
      await recordActivity(tx, actor, { organisationId: account.organisationId, objectType: "Self", objectId: account.id, action: "EmailChangeRequested" });
    }
    // Turning 2FA on owes setup from every session, this one included; off or on, the others end (decision 030).
    if (twoFactorChanged) endedSessions = await changeOwnTwoFactor(tx, actor, account, input.twoFactorAuthenticationActivated!);
    // Sessions carry whether 2FA is owed, so cached ones are read again.
    if (twoFactorChanged) cachedSessionsEnded = await ctx.services.invalidator.announce(tx, { userIds: [account.id] });
  });
  await (cachedSessionsEnded as (() => Promise<void>) | null)?.();
  const change = emailChange as RequestedEmailChange | null;
  if (change) await mailEmailChange(ctx.services, change);
  await announceEnded(ctx, actor.userId, endedSessions);
  if (removedStorageKey) await removeBlobBytes(ctx, removedStorageKey, "a removed avatar");
  return actor.userId;
}
