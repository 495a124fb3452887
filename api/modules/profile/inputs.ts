import * as v from "valibot";
import { TEXT_LIMITS } from "../../shared/limits.ts";
import { passwordProblem } from "../../shared/password-rule.ts";
import { ProofFields } from "../auth/reauthentication.ts";

export const INVALID_EMAIL = "Invalid email address";
export const NAME_MAX_LENGTH = TEXT_LIMITS.personName.max;
export const EMAIL_MAX_LENGTH = TEXT_LIMITS.email.max;
export const PASSWORD_MAX_LENGTH = TEXT_LIMITS.password.max;
export const SAME_PASSWORD = "The new password must be different from the old password.";
/** '-' removes the avatar, as '-' removes an organisation's logo (spec §3). */
export const REMOVE_AVATAR = "-";

// Control characters (line breaks included) and bidirectional overrides would make a name print
// differently from what it is in lists, emails and exports.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

export const personName = v.pipe(
  v.string("Required"),
  v.trim(),
  v.nonEmpty("Required"),
  v.maxLength(NAME_MAX_LENGTH, TEXT_LIMITS.personName.tooLong),
  v.check((name) => !UNPRINTABLE.test(name), "Must not contain control characters"),
);

/** An email address as the console takes it: trimmed, valid, compared and stored lower-cased. */
export const EmailText = v.pipe(v.string("Required"), v.trim(), v.nonEmpty("Required"), v.maxLength(EMAIL_MAX_LENGTH, INVALID_EMAIL), v.email(INVALID_EMAIL), v.toLowerCase());

/** Every field is optional: what is left out stays as it is; what is given must be valid. */
export const ChangeDetailsInput = v.object({
  firstName: v.optional(personName),
  lastName: v.optional(personName),
  email: v.optional(EmailText),
  twoFactorAuthenticationActivated: v.optional(v.boolean()),
  avatarBlobID: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(TEXT_LIMITS.id.max, "Invalid file"))),
  // Proof of the account, asked only when the address or two-factor changes (decision 061).
  ...ProofFields,
});
export type ChangeDetails = v.InferOutput<typeof ChangeDetailsInput>;

const password = v.pipe(v.string("Required"), v.nonEmpty("Required"), v.maxLength(PASSWORD_MAX_LENGTH, TEXT_LIMITS.password.tooLong));

/** A password someone chooses: it must pass the shared rule (api/shared/password-rule.ts). */
export const NewPasswordText = v.pipe(
  password,
  v.rawCheck(({ dataset, addIssue }) => {
    const problem = dataset.typed ? passwordProblem(dataset.value) : null;
    if (problem) addIssue({ message: problem });
  }),
);

export const ChangePasswordInput = v.pipe(
  v.object({
    oldPassword: password,
    newPassword: NewPasswordText,
    passcode: ProofFields.passcode,
    recoveryCode: ProofFields.recoveryCode,
  }),
  v.forward(
    v.check((input) => input.oldPassword !== input.newPassword, SAME_PASSWORD),
    ["newPassword"],
  ),
);
export type ChangePassword = v.InferOutput<typeof ChangePasswordInput>;
