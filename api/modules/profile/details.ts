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

type EmailChange = Parameters<typeof announceEmailChange>[1];

export const EMAIL_TAKEN = "This email address is already in use.";
export const SSO_EMAIL_FIXED = "The email address of a single sign-on account is managed by its Microsoft account and cannot be changed here.";
export const TWO_FACTOR_NOT_HERE = "Two-Factor Authentication cannot be turned on or off from the profile yet.";

/**
 * The signed-in user changes their own name, email or avatar (spec §7, changeDetails). A new
 * email address must be unused by any account and is unproven, so the account counts as
 * unverified again until the code mailed there confirms it; the old address is told of the change. Two-factor authentication is set up
 * through its own screens; here it can only be left as it is (docs/decisions/010-profile-and-password.md).
 */
export async function changeDetails(ctx: Ctx, rawInput: unknown): Promise<string> {
  const actor = requireStaff(ctx);
  const input = parseWith(ChangeDetailsInput, rawInput);
  let removedStorageKey: string | null = null;
  let cachedSessionsEnded: (() => Promise<void>) | null = null;
  let emailChange: EmailChange | null = null;
  try {
    await ctx.db.transaction(async (tx) => {
      const account = await lockOwnAccount(tx, actor);
      if (input.twoFactorAuthenticationActivated !== undefined && input.twoFactorAuthenticationActivated !== account.twoFactorAuthenticationActivated) {
        throw badInput(TWO_FACTOR_NOT_HERE, [{ field: "twoFactorAuthenticationActivated", message: TWO_FACTOR_NOT_HERE }]);
      }
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
        // Sessions carry the email address (the actor), so cached ones are read again.
        cachedSessionsEnded = await ctx.services.invalidator.announce(tx, { userIds: [account.id] });
      }
    });
  } catch (error) {
    // Two accounts taking the same address at the same moment: the unique index decides, with the same words.
    if (isUniqueViolation(error)) throw new UserError("CONFLICT", EMAIL_TAKEN, { fields: [{ field: "email", message: EMAIL_TAKEN }] });
    throw error;
  }
  await (cachedSessionsEnded as (() => Promise<void>) | null)?.();
  const change = emailChange as EmailChange | null;
  if (change) await announceEmailChange(ctx.services, change);
  if (removedStorageKey) await removeBlobBytes(ctx, removedStorageKey, "a removed avatar");
  return actor.userId;
}
