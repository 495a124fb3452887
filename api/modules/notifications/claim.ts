import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { resultRows } from "../../../db/results.ts";
import { userActivities } from "../../../db/schema/index.ts";
import { SYSTEM_ACTOR } from "../../context.ts";
import { recordActivity } from "../audit/service.ts";

/**
 * The record that an event's staff were notified: an audit row (user_activities, action
 * NotifyNewReport or NotifyNewMessage, metadata.event_id), written once per event after its mail
 * went out. The mail itself is a background job (decision 058) that runs at least once, so the
 * record must hold however often it ran: a transaction-level advisory lock keyed by the event
 * serialises the check and the insert, so two writers cannot both find no row and both insert one,
 * and a writer that cannot take the lock skips at once, as the holder is recording that very event.
 */

export type NotificationKind = "NotifyNewReport" | "NotifyNewMessage";

export interface NotificationClaim {
  kind: NotificationKind;
  /** Stable across instances: derived from the event, e.g. `report.new:{submissionId}`. */
  eventId: string;
  organisationId: string;
  submissionId: string;
  reportId: string | null;
}

/** A signed 64-bit advisory-lock key from the event id (a collision could only make two events' claims wait on each other). */
export function lockKey(eventId: string): string {
  return createHash("sha256").update(`lantern.notify:${eventId}`).digest().readBigInt64BE(0).toString();
}

/** True when this call wrote the event's record; false when it was already there (or being written). */
export async function claimNotification(db: Database, claim: NotificationClaim): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [locked] = resultRows<{ locked: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${lockKey(claim.eventId)}::bigint) as locked`));
    if (locked?.locked !== true) return false;
    const [existing] = await tx
      .select({ id: userActivities.id })
      .from(userActivities)
      .where(
        and(
          eq(userActivities.objectType, "ReportSubmission"),
          eq(userActivities.objectId, claim.submissionId),
          eq(userActivities.action, claim.kind),
          sql`${userActivities.metadata}->>'event_id' = ${claim.eventId}`,
        ),
      )
      .limit(1);
    if (existing) return false;
    // Recorded as the system; no addresses, no content: only which event was handled.
    await recordActivity(tx, SYSTEM_ACTOR, {
      organisationId: claim.organisationId,
      objectType: "ReportSubmission",
      objectId: claim.submissionId,
      objectCode: claim.reportId,
      action: claim.kind,
      metadata: { event_id: claim.eventId },
    });
    return true;
  });
}
