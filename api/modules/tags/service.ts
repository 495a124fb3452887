import { and, asc, count, eq, ilike, ne, sql, type SQL } from "drizzle-orm";
import * as v from "valibot";
import type { Database } from "../../../db/client.ts";
import { isUniqueViolation } from "../../../db/results.ts";
import { organisations, reportSubmissions, reportSubmissionTags, tags } from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { UserError, badInput } from "../../lib/errors.ts";
import { isUuid, requireUuid } from "../../lib/ids.ts";
import { containsPattern, parseWith, searchTextOf } from "../../lib/validation.ts";
import { TEXT_LIMITS } from "../../shared/limits.ts";
import type { ListFilter } from "../../shared/enums.ts";
import type { Permission } from "../../shared/permissions.ts";
import { canReachOrganisation, mutate, organisationScope, requirePermission } from "../access/policy.ts";
import { recordActivity } from "../audit/service.ts";
import { ORGANISATION_NOT_FOUND } from "../organisations/service.ts";
import { pageLimit, pageOffset } from "../users/service.ts";

/** Tags: an organisation's labels for reports. Reserved (internal) tags are applied by the console itself. */

export const TAG_NOT_FOUND = "Tag not found";
export const TAG_RESERVED_EDIT = "Tag is reserved and cannot be edited.";
export const TAG_RESERVED_DELETE = "Tag is reserved and cannot be deleted.";
export const TAG_EXISTS = "A tag with this name already exists.";
export const MAX_TAG_NAME = TEXT_LIMITS.tagName.max;

export interface TagView {
  id: string;
  organisationId: string;
  name: string;
  isInternal: boolean;
  archived: boolean;
  updatedAt: Date;
  submissionsCount: number;
}

/** Reports carrying the tag; drafts and deleted reports are nobody's, so they do not count. */
const submissionsCount = sql<number>`(select count(*) from ${reportSubmissionTags} inner join ${reportSubmissions} on ${reportSubmissions.id} = ${reportSubmissionTags.submissionId} where ${reportSubmissionTags.tagId} = ${tags.id} and ${reportSubmissions.completed} and ${reportSubmissions.deletedAt} is null)`.mapWith(Number);

const viewColumns = {
  id: tags.id,
  organisationId: tags.organisationId,
  name: tags.name,
  isInternal: tags.isInternal,
  archived: tags.archived,
  updatedAt: tags.updatedAt,
  submissionsCount,
};

const NameInput = v.object({
  name: v.pipe(v.string("Required"), v.trim(), v.nonEmpty("Required"), v.maxLength(MAX_TAG_NAME, TEXT_LIMITS.tagName.tooLong)),
});

const cleanName = (name: unknown) => parseWith(NameInput, { name }).name;

export interface TagListArgs {
  organisationID?: string | null;
  search?: string | null;
  filter?: ListFilter | null;
  limit?: number | null;
  offset?: number | null;
}

/** The actor's organisation's tags (a super admin may name one, or see every organisation's). */
export async function listTags(ctx: Ctx, args: TagListArgs): Promise<{ total: number; list: TagView[] }> {
  const actor = requirePermission(ctx, "TagList");
  const requested = args.organisationID ? requireUuid(args.organisationID, ORGANISATION_NOT_FOUND) : null;
  const organisationId = organisationScope(actor, requested, ORGANISATION_NOT_FOUND);
  const filters: SQL[] = [];
  if (organisationId) filters.push(eq(tags.organisationId, organisationId));
  const filter = args.filter ?? "Active";
  if (filter !== "All") filters.push(eq(tags.archived, filter === "Archived"));
  const search = searchTextOf(args.search);
  if (search) filters.push(ilike(tags.name, containsPattern(search)));
  const where = filters.length ? and(...filters) : undefined;
  const [total] = await ctx.db.select({ n: count() }).from(tags).where(where);
  const list = await ctx.db
    .select(viewColumns)
    .from(tags)
    .where(where)
    .orderBy(asc(sql`lower(${tags.name})`), asc(tags.id))
    .limit(pageLimit(args.limit))
    .offset(pageOffset(args.offset));
  return { total: total?.n ?? 0, list };
}

async function tagView(db: Database, id: string): Promise<TagView | undefined> {
  return (await db.select(viewColumns).from(tags).where(eq(tags.id, id)))[0];
}

/** One tag of an organisation the actor reaches; anything else is "not found", so ids cannot be probed. */
export async function getTag(ctx: Ctx, rawId: unknown): Promise<TagView> {
  const actor = requirePermission(ctx, "TagRead");
  const tag = isUuid(rawId) ? await tagView(ctx.db, rawId.toLowerCase()) : undefined;
  if (!tag || !canReachOrganisation(actor, tag.organisationId)) throw new UserError("NOT_FOUND", TAG_NOT_FOUND);
  return tag;
}

/**
 * Runs a tag change in one transaction with its audit entry. The name check inside is for the
 * message; the unique index on lower(name) settles two concurrent creations of the same name.
 */
async function changeTag<T>(ctx: Ctx, permission: Permission, work: (tx: Database, actor: StaffActor) => Promise<T>): Promise<T> {
  try {
    return await mutate(ctx, permission, work);
  } catch (error) {
    if (isUniqueViolation(error)) throw new UserError("CONFLICT", TAG_EXISTS);
    throw error;
  }
}

async function requireFreeName(tx: Database, organisationId: string, name: string, exceptId?: string): Promise<void> {
  const [taken] = await tx
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.organisationId, organisationId), sql`lower(${tags.name}) = lower(${name})`, ...(exceptId ? [ne(tags.id, exceptId)] : [])));
  if (taken) throw new UserError("CONFLICT", TAG_EXISTS);
}

/** The tag, locked, if the actor reaches its organisation. */
async function lockedTag(tx: Database, actor: StaffActor, rawId: unknown) {
  const [tag] = isUuid(rawId) ? await tx.select().from(tags).where(eq(tags.id, rawId.toLowerCase())).for("update") : [];
  if (!tag || !canReachOrganisation(actor, tag.organisationId)) throw new UserError("NOT_FOUND", TAG_NOT_FOUND);
  return tag;
}

const audit = (tx: Database, actor: StaffActor, tag: { id: string; organisationId: string }, action: string, metadata: Record<string, unknown>) =>
  recordActivity(tx, actor, { organisationId: tag.organisationId, objectType: "Tag", objectId: tag.id, action, metadata });

export async function createTag(ctx: Ctx, organisationID: string | null | undefined, rawName: unknown): Promise<TagView> {
  const id = await changeTag(ctx, "TagCreate", async (tx, actor) => {
    const requested = organisationID ? requireUuid(organisationID, ORGANISATION_NOT_FOUND) : null;
    const organisationId = organisationScope(actor, requested, ORGANISATION_NOT_FOUND);
    // A super admin works inside one organisation to create its tags.
    if (!organisationId) throw badInput("Required", [{ field: "organisationID", message: "Required" }]);
    const [organisation] = await tx.select({ id: organisations.id }).from(organisations).where(eq(organisations.id, organisationId));
    if (!organisation) throw new UserError("NOT_FOUND", ORGANISATION_NOT_FOUND);
    const name = cleanName(rawName);
    await requireFreeName(tx, organisationId, name);
    const [tag] = await tx.insert(tags).values({ organisationId, name }).returning();
    await audit(tx, actor, tag!, "Create", { name });
    return tag!.id;
  });
  return (await tagView(ctx.db, id))!;
}

export async function renameTag(ctx: Ctx, rawId: unknown, rawName: unknown): Promise<TagView> {
  const id = await changeTag(ctx, "TagUpdate", async (tx, actor) => {
    const tag = await lockedTag(tx, actor, rawId);
    if (tag.isInternal) throw new UserError("FORBIDDEN", TAG_RESERVED_EDIT);
    const name = cleanName(rawName);
    await requireFreeName(tx, tag.organisationId, name, tag.id);
    await tx.update(tags).set({ name, updatedAt: new Date() }).where(eq(tags.id, tag.id));
    await audit(tx, actor, tag, "Update", { name, from: tag.name, to: name });
    return tag.id;
  });
  return (await tagView(ctx.db, id))!;
}

/** Archive is the console's "delete": the tag leaves lists and reports but can be restored. */
export async function setTagArchived(ctx: Ctx, rawId: unknown, archived: boolean): Promise<TagView> {
  const id = await changeTag(ctx, archived ? "TagArchive" : "TagUnarchive", async (tx, actor) => {
    const tag = await lockedTag(tx, actor, rawId);
    if (archived && tag.isInternal) throw new UserError("FORBIDDEN", TAG_RESERVED_DELETE);
    if (tag.archived === archived) throw new UserError("CONFLICT", archived ? "Tag is already archived." : "Tag is not archived.");
    await tx.update(tags).set({ archived, archivedAt: archived ? new Date() : null, updatedAt: new Date() }).where(eq(tags.id, tag.id));
    await audit(tx, actor, tag, archived ? "Archive" : "Unarchive", { name: tag.name });
    return tag.id;
  });
  return (await tagView(ctx.db, id))!;
}
