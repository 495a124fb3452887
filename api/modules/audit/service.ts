import { sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { userActivities } from "../../../db/schema/index.ts";
import type { Actor } from "../../context.ts";
import type { AuditObjectType } from "../../shared/audit-object-types.ts";
import { dayGrainCreatedAt } from "./day-grain.ts";

export interface ActivityEntry {
  organisationId: string | null;
  objectType: AuditObjectType;
  objectId?: string | null;
  objectCode?: string | null;
  action: string;
  metadata?: Record<string, unknown>;
  parentId?: string | null;
  /**
   * The parts of one action that each changed something of their own (the tags one assignment
   * added and removed): written as the entry's children, and the entry marked grouped so the log
   * offers View Logs. Children inherit the organisation.
   */
  children?: readonly Omit<ActivityEntry, "organisationId" | "children" | "parentId">[];
}

/**
 * Writes one audit entry. Always called with the transaction of the change it records, so the
 * entry exists exactly when the change does. A reporter is recorded as no user: nothing about
 * who they are is written. An entry without a person (a reporter's, an enquirer's, the system's,
 * which follows what a reporter did) keeps only its day (day-grain.ts, decision 064).
 */
export async function recordActivity(tx: Database, actor: Actor | { userId: string }, entry: ActivityEntry): Promise<string> {
  const userId = "userId" in actor ? actor.userId : null;
  const objectId = entry.objectId ?? null;
  const [row] = await tx
    .insert(userActivities)
    .values({
      ...(userId === null ? { createdAt: dayGrainCreatedAt(entry.organisationId === null ? null : sql`${entry.organisationId}::uuid`, sql`${entry.objectType}::audit_object_type`, objectId === null ? null : sql`${objectId}::text`) } : {}),
      organisationId: entry.organisationId,
      userId,
      objectType: entry.objectType,
      objectId,
      objectCode: entry.objectCode ?? null,
      action: entry.action,
      metadata: entry.metadata ?? {},
      parentId: entry.parentId ?? null,
      isGrouped: Boolean(entry.children?.length),
    })
    .returning({ id: userActivities.id });
  for (const child of entry.children ?? []) await recordActivity(tx, actor, { ...child, organisationId: entry.organisationId, parentId: row!.id });
  return row!.id;
}
