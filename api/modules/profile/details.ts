import { and, eq, ne, sql } from "drizzle-orm";
import { isUniqueViolation } from "../../../db/results.ts";
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
import { voidSignInLinks } from "../account-access/mailed-tokens.ts";
import { announceEmailChange, issueVerificationCode } from "../account-access/verification.ts";
import { changeOwnTwoFactor } from "../auth/two-factor/switch.ts";
import { announceEnded } from "../auth/two-factor/attempts.ts";

type EmailChange = Parameters<typeof announceEmailChange>[1];

export const EMAIL_TAKEN = "This email address is already in use.";
export const SSO_EMAIL_FIXED = "The email address of a single sign-on account is managed by its Microsoft account and cannot be changed here.";

/**
 * The signed-in user changes their own name, email or avatar (spec §7, changeDetails). A new
 * email address must be unused by any account and is unproven, so the account counts as
 * unverified again until the code mailed there confirms it; the old address is told of the change.
 * Two-factor authentication is turned on or off here (the Settings toggle); its setup then happens on
 * its own screens (decision 030).
 */
export async function changeDetails(ctx: Ctx, rawInput: unknown): Promise<string> {
  const actor = requireStaff(ctx);
  const input = parseWith(ChangeDetailsInput, rawInput);
  let removedStorageKey: string | null = null;
  let cachedSessionsEnded: (() => Promise<void>) | null = null;
  let emailChange: EmailChange | null = null;
  let endedSessions: string[] = [];
  try {
    await ctx.db.transaction(async (tx) => {
      const account = await lockOwnAccount(tx, actor);
      const twoFactorChanged = input.twoFactorAuthenticationActivated !== undefined && input.twoFactorAuthenticationActivated !== account.twoFactorAuthenticationActivated;
      const emailChanged = input.email !== undefined && input.email !== account.email.toLowerCase();
      if (emailChanged) {
        if (account.isSSO) throw badInput(SSO_EMAIL_FIXED, [{ field: "email", message: SSO_EMAIL_FIXED }]);
        const [taken] = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(sql`lower(${users.email}) = ${input.email}`, ne(users.id, account.id)))
          .limit(1);
        if (taken) throw new UserError("CONFLICT", EMAIL_TAKEN, { fields: [{ field: "email", message: EMAIL_TAKEN }] });
      }
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
          ...(emailChanged ? { email: input.email, verified: false } : {}),
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
        metadata: { first_name: firstName, last_name: lastName, email_changed: emailChanged, avatar_removed: removeAvatar },
      });
      if (emailChanged) {
        // The new address must be proven (a code goes there), and links mailed to the old one stop working.
        emailChange = { oldEmail: account.email, newEmail: input.email!, code: await issueVerificationCode(tx, account.id, new Date()) };
        await voidSignInLinks(tx, account.id);
      }
      // Turning 2FA on owes setup from every session, this one included; off or on, the others end (decision 030).
      if (twoFactorChanged) endedSessions = await changeOwnTwoFactor(tx, actor, account, input.twoFactorAuthenticationActivated!);
      // Sessions carry the email address (the actor) and whether 2FA is owed, so cached ones are read again.
      if (emailChanged || twoFactorChanged) cachedSessionsEnded = await ctx.services.invalidator.announce(tx, { userIds: [account.id] });
    });
  } catch (error) {
    // Two accounts taking the same address at the same moment: the unique index decides, with the same words.
    if (isUniqueViolation(error)) throw new UserError("CONFLICT", EMAIL_TAKEN, { fields: [{ field: "email", message: EMAIL_TAKEN }] });
    throw error;
  }
  await (cachedSessionsEnded as (() => Promise<void>) | null)?.();
  const change = emailChange as EmailChange | null;
  if (change) await announceEmailChange(ctx.services, change);
  await announceEnded(ctx, actor.userId, endedSessions);
  if (removedStorageKey) await removeBlobBytes(ctx, removedStorageKey, "a removed avatar");
  return actor.userId;
}
