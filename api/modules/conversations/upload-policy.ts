import { eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { organisations, reportForms } from "../../../db/schema/index.ts";
import type { FormType } from "../../shared/enums.ts";

export const IMAGE_UPLOADS_NOT_ALLOWED = "Image uploads are not allowed in this conversation.";

/**
 * Spec (reporter follow-up area): chat file uploads are disabled unless allowed, per form by
 * allowChatFileUploads and for enquiries by the organisation's allowGeneralEnquiryChatFileUploads
 * (an Enquiry form has no settings screen of its own). The flags bind reporters; staff may always
 * send images.
 */
export function chatUploadsAllowed(form: { type: FormType; allowChatFileUploads: boolean }, organisation: { allowGeneralEnquiryChatFileUploads: boolean }): boolean {
  return form.type === "Enquiry" ? organisation.allowGeneralEnquiryChatFileUploads : form.allowChatFileUploads;
}

/** The rule above for the form and organisation of one submission. */
export async function reporterMayUploadImages(db: Database, submission: { formId: string }): Promise<boolean> {
  const [row] = await db
    .select({ type: reportForms.type, allowChatFileUploads: reportForms.allowChatFileUploads, allowGeneralEnquiryChatFileUploads: organisations.allowGeneralEnquiryChatFileUploads })
    .from(reportForms)
    .innerJoin(organisations, eq(organisations.id, reportForms.organisationId))
    .where(eq(reportForms.id, submission.formId))
    .limit(1);
  return row ? chatUploadsAllowed(row, row) : false;
}
