import type { JobToEnqueue } from "../../lib/jobs.ts";

/** The job of a reporter's new message; its id is the job's subject and, once, its dedupe key. */
export const NEW_MESSAGE_JOB = "notify.new_message";

/**
 * The mail job of a reporter's new message, added in the message's own transaction
 * (conversations/write.ts), so the mail exists exactly when the message does (decision 058). Every
 * instance that hears the message's event adds it again under the same key, which keeps one.
 */
export function newMessageJob(messageId: string): JobToEnqueue {
  return { kind: NEW_MESSAGE_JOB, subjectId: messageId, dedupeKey: `conversation.message:${messageId}` };
}
