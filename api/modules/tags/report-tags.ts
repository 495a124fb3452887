import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import { reportSubmissionTags, tags } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError, forbidden } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { isSuperAdmin, requirePermission } from "../access/policy.ts";
import { changeReport } from "../reports/events.ts";
import type { ReportView } from "../reports/views.ts";
import { TAG_NOT_FOUND } from "./service.ts";

const PERMISSION = "ReportSubmissionInternalReference";

/**
 * The Report Identifiers card's tags: replaces the report's tags with the given active tags of
 * its organisation. Super admins and guest members do not get the card (spec).
 */
export async function assignReportTags(ctx: Ctx, id: unknown, tagIds: readonly unknown[]): Promise<ReportView> {
  const actor = requirePermission(ctx, PERMISSION);
  if (isSuperAdmin(actor) || actor.role === "GUEST_MEMBER") throw forbidden();
  if (!tagIds.every(isUuid)) throw new UserError("NOT_FOUND", TAG_NOT_FOUND);
  const wanted = [...new Set(tagIds.map((tagId) => tagId.toLowerCase()))];
  return changeReport(ctx, id, PERMISSION, async (tx, access) => {
    const found = wanted.length
      ? await tx
          .select({ id: tags.id, name: tags.name })
          .from(tags)
          .where(and(inArray(tags.id, wanted), eq(tags.organisationId, access.submission.organisationId), eq(tags.archived, false)))
      : [];
    // Another organisation's tag, an archived one or an unknown id: all the same "not found".
    if (found.length !== wanted.length) throw new UserError("NOT_FOUND", TAG_NOT_FOUND);
    const before = await tx
      .select({ id: tags.id, name: tags.name })
      .from(reportSubmissionTags)
      .innerJoin(tags, eq(tags.id, reportSubmissionTags.tagId))
      .where(and(eq(reportSubmissionTags.submissionId, access.submission.id), eq(tags.archived, false)));
    // Links to archived tags stay (hidden from views), so unarchiving a tag restores it where it was.
    await tx
      .delete(reportSubmissionTags)
      .where(
        and(
          eq(reportSubmissionTags.submissionId, access.submission.id),
          ...(wanted.length ? [notInArray(reportSubmissionTags.tagId, wanted)] : []),
          sql`${reportSubmissionTags.tagId} in (select ${tags.id} from ${tags} where ${tags.archived} = false)`,
        ),
      );
    if (wanted.length) await tx.insert(reportSubmissionTags).values(wanted.map((tagId) => ({ submissionId: access.submission.id, tagId }))).onConflictDoNothing();
    return { action: "AssignTags", metadata: { tags: found.map((tag) => tag.name).sort() }, children: tagChanges(before, found) };
  });
}

type NamedTag = { id: string; name: string };

/** One child entry per tag the assignment added or removed, so the log can say which (View Logs). */
function tagChanges(before: readonly NamedTag[], after: readonly NamedTag[]) {
  const had = new Set(before.map((tag) => tag.id));
  const has = new Set(after.map((tag) => tag.id));
  const entry = (action: "TagAdded" | "TagRemoved") => (tag: NamedTag) => ({ objectType: "Tag" as const, objectId: tag.id, action, metadata: { name: tag.name } });
  return [...after.filter((tag) => !had.has(tag.id)).map(entry("TagAdded")), ...before.filter((tag) => !has.has(tag.id)).map(entry("TagRemoved"))];
}
