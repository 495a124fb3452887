import { and, eq, ilike, or, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import * as v from "valibot";
import type { Database } from "../../../db/client.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { forbidden } from "../../lib/errors.ts";
import { containsPattern, searchTextOf } from "../../lib/validation.ts";
import type { ListFilter } from "../../shared/enums.ts";
import { RESOURCE_TEXT_LIMITS } from "../../shared/resources.ts";
import { isWebAddress, VIDEO_URL_SCHEMES } from "../../shared/web-address.ts";
import { requirePermission } from "../access/policy.ts";
import { recordActivity } from "../audit/service.ts";

/**
 * What help videos and documents share (decision 039): they are the platform's, not an
 * organisation's, so nothing here is scoped by organisation; every signed-in user reads the active
 * ones, and archived ones are seen only by those who may bring them back.
 */

export const RESOURCE_NOT_FOUND = "Resource not found";

const required = (limit: { max: number; tooLong: string }) => v.pipe(v.string("Required"), v.trim(), v.nonEmpty("Required"), v.maxLength(limit.max, limit.tooLong));

export const TextFields = { title: required(RESOURCE_TEXT_LIMITS.title), description: required(RESOURCE_TEXT_LIMITS.description) };

export const VideoInput = v.object({
  ...TextFields,
  // Stored as the parsed address's own spelling, so what the console links to is exactly what was checked.
  videoSrc: v.pipe(required(RESOURCE_TEXT_LIMITS.videoUrl), v.check(isWebAddress, VIDEO_URL_SCHEMES), v.transform((text) => new URL(text).href)),
});

export const DocumentTextInput = v.object(TextFields);

/** Archived resources are what ResourceUnarchive acts on: seeing them goes with that permission. */
export const managesResources = (actor: StaffActor) => actor.permissions.has("ResourceUnarchive");

export interface ResourceListArgs {
  search?: string | null;
  filter?: ListFilter | null;
  limit?: number | null;
  offset?: number | null;
}

interface ListedColumns {
  title: PgColumn;
  description: PgColumn;
  archived: PgColumn;
}

/** The filter of a resource list: readers get the active ones; Archived and All are for managers. */
export function resourceListWhere(ctx: Ctx, args: ResourceListArgs, columns: ListedColumns): SQL | undefined {
  const actor = requirePermission(ctx, "ResourceList");
  const filter = args.filter ?? "Active";
  if (filter !== "Active" && !managesResources(actor)) throw forbidden();
  const filters: SQL[] = [];
  if (filter !== "All") filters.push(eq(columns.archived, filter === "Archived"));
  const search = searchTextOf(args.search);
  if (search) filters.push(or(ilike(columns.title, containsPattern(search)), ilike(columns.description, containsPattern(search)))!);
  return filters.length ? and(...filters) : undefined;
}

/**
 * The audit entry of a resource change. Resources have no object type of their own in the spec's
 * list; "Blob" (files and content of the platform) is the nearest, and the action names which kind
 * changed. No organisation: the entry is in the platform-wide log.
 */
export const auditResource = (tx: Database, actor: StaffActor, action: string, resource: { id: string; title: string }, metadata: Record<string, unknown> = {}) =>
  recordActivity(tx, actor, { organisationId: null, objectType: "Blob", objectId: resource.id, action, metadata: { name: resource.title, ...metadata } });
