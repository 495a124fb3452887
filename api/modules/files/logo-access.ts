import { and, eq } from "drizzle-orm";
import { blobs, organisations } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { notFound } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";

export const LOGO_NOT_FOUND = "File not found";

/**
 * An organisation's logo. Logos are public (the organisation page shows them to anyone), but
 * only an active organisation's, and only the blob its row points at as a logo.
 */
export async function openOrganisationLogo(ctx: Ctx, organisationId: string) {
  if (!isUuid(organisationId)) throw notFound(LOGO_NOT_FOUND);
  const [row] = await ctx.db
    .select({ storageKey: blobs.storageKey, mimeType: blobs.mimeType, sizeBytes: blobs.sizeBytes })
    .from(organisations)
    .innerJoin(blobs, eq(blobs.id, organisations.logoBlobId))
    .where(and(eq(organisations.id, organisationId), eq(organisations.archived, false), eq(blobs.purpose, "OrganisationLogo")))
    .limit(1);
  if (!row) throw notFound(LOGO_NOT_FOUND);
  const body = await ctx.services.blobs.stream(row.storageKey);
  if (!body) throw notFound(LOGO_NOT_FOUND);
  return { body, mimeType: row.mimeType, sizeBytes: row.sizeBytes };
}
