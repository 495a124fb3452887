import { and, asc, eq, sql } from "drizzle-orm";
import * as v from "valibot";
import type { Database } from "../../../db/client.ts";
import { organisations, savedReplies } from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { UserError, badInput } from "../../lib/errors.ts";
import { isUuid, requireUuid } from "../../lib/ids.ts";
import { parseWith } from "../../lib/validation.ts";
import { TEXT_LIMITS } from "../../shared/limits.ts";
import { canReachOrganisation, mutate, organisationScope, requirePermission } from "../access/policy.ts";
import { recordActivity } from "../audit/service.ts";
import { ORGANISATION_NOT_FOUND } from "../organisations/service.ts";

/**
 * Saved replies: an organisation's ready texts that staff insert into a report's chat and may edit
 * before sending (decision 051). Owners and admins manage them; everyone who chats on reports reads them.
 */

export const SAVED_REPLY_NOT_FOUND = "Saved reply not found";
export const SAVED_REPLY_ARCHIVED = "Saved reply is already archived.";

export type SavedReplyView = typeof savedReplies.$inferSelect;

const requiredText = (limit: { max: number; tooLong: string }) => v.pipe(v.string("Required"), v.trim(), v.nonEmpty("Required"), v.maxLength(limit.max, limit.tooLong));

const SavedReplyInput = v.object({
  title: requiredText(TEXT_LIMITS.savedReplyTitle),
  body: requiredText(TEXT_LIMITS.savedReplyBody),
});

export type SavedReplyFields = v.InferOutput<typeof SavedReplyInput>;

/** The organisation a request names, within the actor's reach; a super admin must name one. */
function targetOrganisation(actor: StaffActor, organisationID: string | null | undefined): string {
  const requested = organisationID ? requireUuid(organisationID, ORGANISATION_NOT_FOUND) : null;
  const organisationId = organisationScope(actor, requested, ORGANISATION_NOT_FOUND);
  if (!organisationId) throw badInput("Required", [{ field: "organisationID", message: "Required" }]);
  return organisationId;
}

/** The organisation's saved replies, by title; archived ones only when asked for. */
export async function listSavedReplies(ctx: Ctx, organisationID: string | null | undefined, includeArchived = false): Promise<SavedReplyView[]> {
  const actor = requirePermission(ctx, "SavedReplyList");
  const organisationId = targetOrganisation(actor, organisationID);
  const filters = [eq(savedReplies.organisationId, organisationId)];
  if (!includeArchived) filters.push(eq(savedReplies.archived, false));
  return ctx.db
    .select()
    .from(savedReplies)
    .where(and(...filters))
    .orderBy(asc(sql`lower(${savedReplies.title})`), asc(savedReplies.id));
}

/** The reply, locked, if the actor reaches its organisation; anything else is "not found", so ids cannot be probed. */
async function lockedReply(tx: Database, actor: StaffActor, rawId: unknown): Promise<SavedReplyView> {
  const [reply] = isUuid(rawId) ? await tx.select().from(savedReplies).where(eq(savedReplies.id, rawId.toLowerCase())).for("update") : [];
  if (!reply || !canReachOrganisation(actor, reply.organisationId)) throw new UserError("NOT_FOUND", SAVED_REPLY_NOT_FOUND);
  return reply;
}

/** Entries are about the organisation (the audit log's object types are fixed); the reply is named by the spec's "name" key, which the log shows. */
const audit = (tx: Database, actor: StaffActor, reply: SavedReplyView, action: string) =>
  recordActivity(tx, actor, { organisationId: reply.organisationId, objectType: "Organisation", objectId: reply.organisationId, action, metadata: { saved_reply_id: reply.id, name: reply.title } });

export async function createSavedReply(ctx: Ctx, organisationID: string | null | undefined, input: unknown): Promise<SavedReplyView> {
  return mutate(ctx, "SavedReplyCreate", async (tx, actor) => {
    const organisationId = targetOrganisation(actor, organisationID);
    const [organisation] = await tx.select({ id: organisations.id }).from(organisations).where(eq(organisations.id, organisationId));
    if (!organisation) throw new UserError("NOT_FOUND", ORGANISATION_NOT_FOUND);
    const fields = parseWith(SavedReplyInput, input);
    const [reply] = await tx.insert(savedReplies).values({ organisationId, ...fields }).returning();
    await audit(tx, actor, reply!, "SavedReplyCreate");
    return reply!;
  });
}

export async function updateSavedReply(ctx: Ctx, rawId: unknown, input: unknown): Promise<SavedReplyView> {
  return mutate(ctx, "SavedReplyUpdate", async (tx, actor) => {
    const reply = await lockedReply(tx, actor, rawId);
    const fields = parseWith(SavedReplyInput, input);
    const [updated] = await tx.update(savedReplies).set({ ...fields, updatedAt: new Date() }).where(eq(savedReplies.id, reply.id)).returning();
    await audit(tx, actor, updated!, "SavedReplyUpdate");
    return updated!;
  });
}

/** Archive is the console's "delete": the reply leaves the composer's menu. */
export async function archiveSavedReply(ctx: Ctx, rawId: unknown): Promise<SavedReplyView> {
  return mutate(ctx, "SavedReplyArchive", async (tx, actor) => {
    const reply = await lockedReply(tx, actor, rawId);
    if (reply.archived) throw new UserError("CONFLICT", SAVED_REPLY_ARCHIVED);
    const now = new Date();
    const [archived] = await tx.update(savedReplies).set({ archived: true, archivedAt: now, updatedAt: now }).where(eq(savedReplies.id, reply.id)).returning();
    await audit(tx, actor, archived!, "SavedReplyArchive");
    return archived!;
  });
}
