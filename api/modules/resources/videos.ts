import { count, desc, eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { resourceVideos } from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { notFound, UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { parseWith } from "../../lib/validation.ts";
import { mutate } from "../access/policy.ts";
import { pageLimit, pageOffset } from "../users/service.ts";
import { auditResource, RESOURCE_NOT_FOUND, resourceListWhere, VideoInput, type ResourceListArgs } from "./rules.ts";

/** Help videos (spec: resourceVideos, resourceVideoCreate/Update/Archive/Unarchive): a title, a description and a link. */

export type VideoView = typeof resourceVideos.$inferSelect;

export async function listResourceVideos(ctx: Ctx, args: ResourceListArgs): Promise<{ total: number; list: VideoView[] }> {
  const where = resourceListWhere(ctx, args, resourceVideos);
  const [total] = await ctx.db.select({ n: count() }).from(resourceVideos).where(where);
  const list = await ctx.db
    .select()
    .from(resourceVideos)
    .where(where)
    .orderBy(desc(resourceVideos.createdAt), desc(resourceVideos.id))
    .limit(pageLimit(args.limit))
    .offset(pageOffset(args.offset));
  return { total: total?.n ?? 0, list };
}

async function lockedVideo(tx: Database, rawId: unknown): Promise<VideoView> {
  const [video] = isUuid(rawId) ? await tx.select().from(resourceVideos).where(eq(resourceVideos.id, rawId.toLowerCase())).for("update") : [];
  if (!video) throw notFound(RESOURCE_NOT_FOUND);
  return video;
}

export function createResourceVideo(ctx: Ctx, rawInput: unknown): Promise<VideoView> {
  return mutate(ctx, "ResourceCreate", async (tx, actor) => {
    const input = parseWith(VideoInput, rawInput);
    const [video] = await tx.insert(resourceVideos).values(input).returning();
    await auditResource(tx, actor, "ResourceVideoCreate", video!);
    return video!;
  });
}

export function updateResourceVideo(ctx: Ctx, rawId: unknown, rawInput: unknown): Promise<VideoView> {
  return mutate(ctx, "ResourceUpdate", async (tx, actor) => {
    const video = await lockedVideo(tx, rawId);
    const input = parseWith(VideoInput, rawInput);
    const [updated] = await tx.update(resourceVideos).set({ ...input, updatedAt: new Date() }).where(eq(resourceVideos.id, video.id)).returning();
    await auditResource(tx, actor, "ResourceVideoUpdate", updated!);
    return updated!;
  });
}

export function setResourceVideoArchived(ctx: Ctx, rawId: unknown, archived: boolean): Promise<VideoView> {
  return mutate(ctx, archived ? "ResourceArchive" : "ResourceUnarchive", async (tx: Database, actor: StaffActor) => {
    const video = await lockedVideo(tx, rawId);
    if (video.archived === archived) throw new UserError("CONFLICT", archived ? "Video is already archived." : "Video is not archived.");
    const [updated] = await tx
      .update(resourceVideos)
      .set({ archived, archivedAt: archived ? new Date() : null, updatedAt: new Date() })
      .where(eq(resourceVideos.id, video.id))
      .returning();
    await auditResource(tx, actor, archived ? "ResourceVideoArchive" : "ResourceVideoUnarchive", updated!, { archived });
    return updated!;
  });
}
