import { eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { isUniqueViolation } from "../../../db/results.ts";
import { organisations, users } from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { badInput, forbidden, UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { hashPassword } from "../../lib/passwords.ts";
import { parseWith } from "../../lib/validation.ts";
import type { RoleName } from "../../shared/enums.ts";
import { isSuperAdmin, mutate, parseOnceFound, requirePermission } from "../access/policy.ts";
import { issueVerificationCode, sendVerificationCode } from "../account-access/verification.ts";
import { recordActivity } from "../audit/service.ts";
import { SUPER_ADMIN_CANNOT_ENABLE } from "../auth/two-factor/switch.ts";
import { INVALID_FILE } from "../files/chat-image.ts";
import { claimSeat } from "../organisations/seats.ts";
import { namedOrganisation } from "../organisations/service.ts";
import { EMAIL_TAKEN } from "../account-access/email-change.ts";
import { REMOVE_AVATAR } from "../profile/inputs.ts";
import { UserCreateInput, type UserCreate } from "./inputs.ts";
import { mayGiveRole, OUTRANKED, roleById } from "./rules.ts";

export const ORGANISATION_NOT_FOUND = "Organisation is not found";
export const SUPER_ADMIN_HAS_NO_ORGANISATION = "A Super Admin belongs to no organisation.";
const required = (field: string) => badInput("Required", [{ field, message: "Required" }]);

/**
 * The organisation a new user joins (spec §5: required outside an organisation page, except for
 * super admins and guest members). Anyone but a super admin creates users in their own only.
 */
function organisationFor(actor: StaffActor, role: RoleName, requested: string | null | undefined): string | null {
  const given = requested ? requested : null;
  if (!isSuperAdmin(actor)) {
    if (given && given.toLowerCase() !== actor.organisationId) throw new UserError("NOT_FOUND", ORGANISATION_NOT_FOUND);
    if (!actor.organisationId) throw forbidden();
    return actor.organisationId;
  }
  if (role === "SUPER_ADMIN") {
    if (given) throw badInput(SUPER_ADMIN_HAS_NO_ORGANISATION, [{ field: "organisationID", message: SUPER_ADMIN_HAS_NO_ORGANISATION }]);
    return null;
  }
  if (!given) {
    if (role === "GUEST_MEMBER") return null;
    throw required("organisationID");
  }
  if (!isUuid(given)) throw new UserError("NOT_FOUND", ORGANISATION_NOT_FOUND);
  return given.toLowerCase();
}

/** The organisation must exist and be open: an archived one takes no new staff. */
async function requireOpenOrganisation(tx: Database, organisationId: string): Promise<void> {
  const [row] = await tx.select({ archived: organisations.archived }).from(organisations).where(eq(organisations.id, organisationId)).limit(1);
  if (!row || row.archived) throw new UserError("NOT_FOUND", ORGANISATION_NOT_FOUND);
}

/**
 * userCreate (spec §7). The new account takes a free seat of its organisation (seats.ts, under the
 * organisation's lock), is unverified, and is mailed a verification code once the row exists.
 * A picture is added afterwards with userUpdateAvatar: no blob exists for an account not yet made.
 */
export async function createUser(ctx: Ctx, rawInput: unknown): Promise<string> {
  const input: UserCreate = await parseOnceFound(ctx, "UserCreate", (db, actor) => namedOrganisation(db, actor, rawInput), () => parseWith(UserCreateInput, rawInput));
  if (input.avatarBlobID && input.avatarBlobID !== REMOVE_AVATAR) throw badInput(INVALID_FILE, [{ field: "avatarBlobID", message: INVALID_FILE }]);
  if (input.twoFactorAuthenticationActivated) {
    throw isSuperAdmin(requirePermission(ctx, "UserCreate")) ? new UserError("FORBIDDEN", SUPER_ADMIN_CANNOT_ENABLE) : forbidden();
  }
  // Hashed before the transaction: the organisation's row stays locked only for the writes.
  const passwordHash = await hashPassword(input.password);
  let created: { id: string; code: string };
  try {
    created = await mutate(ctx, "UserCreate", async (tx, actor) => {
      const role = await roleById(tx, input.roleID);
      if (!mayGiveRole(actor, role.name)) throw forbidden(OUTRANKED);
      const organisationId = organisationFor(actor, role.name, input.organisationID);
      if (organisationId) {
        await requireOpenOrganisation(tx, organisationId);
        await claimSeat(tx, organisationId);
      }
      const [taken] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${input.email}`).limit(1);
      if (taken) throw new UserError("CONFLICT", EMAIL_TAKEN, { fields: [{ field: "email", message: EMAIL_TAKEN }] });
      const [row] = await tx
        .insert(users)
        .values({
          email: input.email,
          username: input.username || null,
          firstName: input.firstName,
          lastName: input.lastName,
          passwordHash,
          roleId: role.id,
          organisationId,
          verified: false,
        })
        .returning({ id: users.id });
      await recordActivity(tx, actor, {
        organisationId,
        objectType: "User",
        objectId: row!.id,
        action: "Create",
        metadata: { first_name: input.firstName, last_name: input.lastName, role: role.name },
      });
      return { id: row!.id, code: await issueVerificationCode(tx, row!.id, new Date()) };
    });
  } catch (error) {
    // Two creations of one address at the same moment: the unique index decides, with the same words.
    if (isUniqueViolation(error)) throw new UserError("CONFLICT", EMAIL_TAKEN, { fields: [{ field: "email", message: EMAIL_TAKEN }] });
    throw error;
  }
  // The account exists either way; a failed mail is logged and the user can ask for another code.
  await sendVerificationCode(ctx.services, input.email, created.code);
  return created.id;
}
