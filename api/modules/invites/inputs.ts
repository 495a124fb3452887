import * as v from "valibot";
import { TEXT_LIMITS } from "../../shared/limits.ts";
import { EmailText, personName } from "../profile/inputs.ts";

/** The Invite User modal: every field 'Required' (spec §5), the address as the console stores addresses. */
// A missing field is an empty one, so it is answered 'Required' like a blank one.
export const InviteInput = v.object({
  firstName: v.optional(personName, ""),
  lastName: v.optional(personName, ""),
  email: v.optional(EmailText, ""),
  roleID: v.optional(v.pipe(v.string("Required"), v.trim(), v.nonEmpty("Required"), v.maxLength(TEXT_LIMITS.id.max, TEXT_LIMITS.id.tooLong)), ""),
});

export type InviteFields = v.InferOutput<typeof InviteInput>;
