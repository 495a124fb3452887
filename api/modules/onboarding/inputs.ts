import * as v from "valibot";
import { TEXT_LIMITS } from "../../shared/limits.ts";
import { passwordProblem } from "../../shared/password-rule.ts";
import { EmailText } from "../profile/inputs.ts";

/** The sign-up calls' inputs (spec §5 'Sign-up'); what the page shows a person is repeated here. */

export const CONFIRMATION_INVALID = "This confirmation link has expired or was already used. Please sign up again.";

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

const requiredText = (max: number, tooLong: string) =>
  v.pipe(v.string("Required"), v.trim(), v.nonEmpty("Required"), v.maxLength(max, tooLong), v.check((text) => !CONTROL.test(text), "Must not contain control characters"));

const optionalText = (max: number) => v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(max, "Too long"))), "");

const PersonName = requiredText(TEXT_LIMITS.personName.max, TEXT_LIMITS.personName.tooLong);

/** Blank keeps the password an existing onboarding already has; anything else must pass the rule. */
const PasswordOrBlank = v.optional(
  v.nullable(
    v.pipe(
      v.string(),
      v.maxLength(TEXT_LIMITS.password.max, TEXT_LIMITS.password.tooLong),
      v.rawCheck(({ dataset, addIssue }) => {
        const problem = dataset.typed && dataset.value !== "" ? passwordProblem(dataset.value) : null;
        if (problem) addIssue({ message: problem });
      }),
    ),
  ),
  "",
);

/** POST /api/auth/onboard_start (spec §7). */
export const OnboardStartInput = v.object({
  role: optionalText(TEXT_LIMITS.short.max),
  firstName: PersonName,
  lastName: PersonName,
  email: EmailText,
  productPlanID: optionalText(TEXT_LIMITS.id.max),
  organisationName: optionalText(TEXT_LIMITS.organisationName.max),
  organisationABN: optionalText(TEXT_LIMITS.abn.max),
  username: optionalText(TEXT_LIMITS.short.max),
  password: PasswordOrBlank,
  inviteToken: optionalText(TEXT_LIMITS.short.max),
  ssoToken: optionalText(4000),
  /** The SSO flow's state, as for sign-in (decision 031); only with ssoToken. */
  ssoState: optionalText(TEXT_LIMITS.short.max),
  verifyToken: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.verifyToken.max, TEXT_LIMITS.verifyToken.tooLong))), ""),
});
export type OnboardStart = v.InferOutput<typeof OnboardStartInput>;

/** A mailed confirmation code as pasted: its shape is checked where it is used. */
const Code = v.pipe(v.string(CONFIRMATION_INVALID), v.trim(), v.nonEmpty(CONFIRMATION_INVALID), v.maxLength(TEXT_LIMITS.short.max, CONFIRMATION_INVALID));

/** POST /api/auth/onboard_finish (spec §7), plus the mailed code that proves the address. */
export const OnboardFinishInput = v.object({
  prospectID: v.pipe(v.string(CONFIRMATION_INVALID), v.trim(), v.maxLength(TEXT_LIMITS.id.max, CONFIRMATION_INVALID)),
  token: Code,
  cardToken: optionalText(TEXT_LIMITS.short.max),
  couponCode: optionalText(TEXT_LIMITS.short.max),
  /** Needed only when finishing in another browser than the one that started (decision 036). */
  password: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.password.max, TEXT_LIMITS.password.tooLong))), ""),
});
export type OnboardFinish = v.InferOutput<typeof OnboardFinishInput>;

export const CodeInput = v.object({ token: Code });

/** onboardUpdate(input): corrections before finishing, with the mailed code as the credential. */
export const OnboardUpdateInput = v.object({
  token: Code,
  firstName: PersonName,
  lastName: PersonName,
  organisationName: optionalText(TEXT_LIMITS.organisationName.max),
  organisationABN: optionalText(TEXT_LIMITS.abn.max),
  password: PasswordOrBlank,
});
export type OnboardUpdate = v.InferOutput<typeof OnboardUpdateInput>;
