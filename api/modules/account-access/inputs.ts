import * as v from "valibot";
import { TEXT_LIMITS } from "../../shared/limits.ts";
import { VERIFY_TOKEN_REQUIRED } from "../../shared/messages.ts";
import { EmailText, NewPasswordText } from "../profile/inputs.ts";

/** A mailed secret as typed or pasted: surrounding spaces do not count; its shape is checked where it is used. */
const TokenText = (required: string) =>
  // A missing token is an empty one: the same message either way.
  v.optional(v.pipe(v.string(required), v.trim(), v.nonEmpty(required), v.maxLength(TEXT_LIMITS.short.max, TEXT_LIMITS.short.tooLong)), "");

export const ForgotPasswordInput = v.object({
  email: EmailText,
  // The bot check (action forgot_password_submit): a solved proof-of-work challenge when the server asked for one.
  verifyToken: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.verifyToken.max, TEXT_LIMITS.verifyToken.tooLong))), ""),
});

export const ResetPasswordInput = v.object({ token: TokenText("Required"), newPassword: NewPasswordText });

export const VerifyAccountInput = v.object({ token: TokenText(VERIFY_TOKEN_REQUIRED) });

export const ResendVerificationInput = v.object({ email: EmailText });
