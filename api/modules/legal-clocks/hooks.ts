import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reportSubmissions } from "../../../db/schema/index.ts";

/**
 * What other modules call, in their own transaction, when a clock stops (decision 050). Each is one
 * UPDATE that only fills an empty time: the first acknowledgement and the first feedback count,
 * whatever comes later. They return whether this call was the one that stopped the clock.
 */

/** Left as it is: the caller's own change decides whether the report moves up "Date Updated". */
const keepUpdatedAt = sql`${reportSubmissions.updatedAt}`;

/** The first staff message, or the automatic acknowledgement, acknowledges the report. */
export async function markAcknowledged(tx: Database, submissionId: string, at: Date): Promise<boolean> {
  const rows = await tx
    .update(reportSubmissions)
    .set({ acknowledgedAt: at, updatedAt: keepUpdatedAt })
    .where(and(eq(reportSubmissions.id, submissionId), isNull(reportSubmissions.acknowledgedAt)))
    .returning({ id: reportSubmissions.id });
  return rows.length > 0;
}

/** Closing the report with an outcome, or staff recording feedback given another way. */
export async function markFeedbackGiven(tx: Database, submissionId: string, at: Date): Promise<boolean> {
  const rows = await tx
    .update(reportSubmissions)
    .set({ feedbackAt: at, updatedAt: keepUpdatedAt })
    .where(and(eq(reportSubmissions.id, submissionId), isNull(reportSubmissions.feedbackAt)))
    .returning({ id: reportSubmissions.id });
  return rows.length > 0;
}
