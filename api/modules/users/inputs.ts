import * as v from "valibot";
import { ProofFields } from "../auth/reauthentication.ts";
import { TEXT_LIMITS } from "../../shared/limits.ts";
import { EmailText, NewPasswordText } from "../profile/inputs.ts";

/** The user administration's inputs (spec §7 userCreate, userUpdate), checked before anything is read. */

// Control characters (line breaks included) and bidirectional overrides would print a name differently from what it is.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

const personName = v.pipe(
  v.string("Required"),
  v.trim(),
  v.nonEmpty("Required"),
  v.maxLength(TEXT_LIMITS.personName.max, TEXT_LIMITS.personName.tooLong),
  v.check((name) => !UNPRINTABLE.test(name), "Must not contain control characters"),
);

/** Optional; blank means none. */
const username = v.pipe(
  v.nullish(v.string(), ""),
  v.transform((value) => value.trim()),
  v.maxLength(TEXT_LIMITS.personName.max, TEXT_LIMITS.personName.tooLong),
  v.check((name) => !UNPRINTABLE.test(name), "Must not contain control characters"),
);

const idText = v.pipe(v.string("Required"), v.trim(), v.maxLength(TEXT_LIMITS.id.max, TEXT_LIMITS.id.tooLong));
const optionalId = v.nullish(idText);

export const UserCreateInput = v.object({
  username,
  firstName: personName,
  lastName: personName,
  email: EmailText,
  password: NewPasswordText,
  avatarBlobID: optionalId,
  organisationID: optionalId,
  roleID: v.pipe(idText, v.nonEmpty("Required")),
  twoFactorAuthenticationActivated: v.nullish(v.boolean()),
});
export type UserCreate = v.InferOutput<typeof UserCreateInput>;

/** Every field optional: what is left out stays as it is (a password-only change sends just the password). */
export const UserUpdateInput = v.object({
  username: v.optional(username),
  firstName: v.nullish(personName),
  lastName: v.nullish(personName),
  email: v.nullish(EmailText),
  password: v.nullish(NewPasswordText),
  avatarBlobID: optionalId,
  organisationID: optionalId,
  roleID: optionalId,
  twoFactorAuthenticationActivated: v.nullish(v.boolean()),
  // The acting user's own proof, for a change of how the account signs in or where its mail goes (decision 061).
  ownPassword: ProofFields.password,
  ownPasscode: ProofFields.passcode,
  ownRecoveryCode: ProofFields.recoveryCode,
});
export type UserUpdate = v.InferOutput<typeof UserUpdateInput>;

/** The export's filter (spec §7): Active users are not suspended, Archived ones are (decision 034). */
export const USER_EXPORT_FILTERS = ["All", "Active", "Archived"] as const;
export type UserExportFilter = (typeof USER_EXPORT_FILTERS)[number];
export const UserExportInput = v.object({ search: v.picklist(USER_EXPORT_FILTERS, "Required") });
